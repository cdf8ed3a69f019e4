// The analysis thread loads the TypeScript modules through tsx, like the inspection pool (src/workers/worker-entry.mjs).
import { register } from 'tsx/esm/api';

register();
const task = await import('./analysis-task.ts');
export default task.default;
