// Entry of the thread that builds the inspection threads' shared tables (src/workers/shared-tables-build.ts).
import { parentPort } from 'node:worker_threads';
import { loadTask } from './load-task.mjs';

const build = await loadTask(import.meta.url, 'shared-tables-task');
parentPort.postMessage(await build());
