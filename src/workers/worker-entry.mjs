// Entry of the inspection pool's threads (src/workers/pool.ts).
import { loadTask } from './load-task.mjs';

export default await loadTask(import.meta.url, 'inspect-task');
