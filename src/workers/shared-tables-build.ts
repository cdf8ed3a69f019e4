import { Worker } from 'node:worker_threads';
import type { SharedTables } from '../inspect/shared-tables.js';

/**
 * The lexicons' automata, built once in a thread of their own and returned on shared memory (src/inspect/shared-tables.ts),
 * for the inspection pool to hand to every thread it starts (replacements included). Built in a thread rather than in
 * the main one so that the build's garbage never grows the main thread's heap. Undefined when the build fails: each
 * inspection thread then builds its own copy, exactly as before (more memory, same verdicts).
 */
export async function buildSharedTables(entry = new URL('./shared-tables-entry.mjs', import.meta.url)): Promise<SharedTables | undefined> {
  const worker = new Worker(entry);
  try {
    return await new Promise<SharedTables>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the table builder exited with code ${code}`)));
    });
  } catch {
    return undefined;
  } finally {
    await worker.terminate();
  }
}
