// Entry of the evolution loop's analysis thread (src/evolution/analysis-pool.ts).
import { loadTask } from '../workers/load-task.mjs';

export default await loadTask(import.meta.url, 'analysis-task');
