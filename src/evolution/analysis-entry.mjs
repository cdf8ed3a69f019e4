// The analysis thread runs the compiled modules when this file sits in dist/ and loads the TypeScript sources
// through tsx otherwise, like the inspection pool (src/workers/worker-entry.mjs).
import { existsSync } from 'node:fs';

const compiled = new URL('./analysis-task.js', import.meta.url);
let task;
if (existsSync(compiled)) {
  task = await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  task = await import('./analysis-task.ts');
}
export default task.default;
