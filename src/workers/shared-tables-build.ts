import { Worker } from 'node:worker_threads';
import type { SharedTables } from '../inspect/shared-tables.js';

/**
 * The lexicons' automata, built once in a thread of their own and returned on shared memory (src/inspect/shared-tables.ts),
 * for the inspection pool to hand to every thread it starts (replacements included). Built in a thread rather than in
 * the main one so that the build's garbage never grows the main thread's heap. Undefined when the build fails: each
 * inspection thread then builds its own copy, exactly as before (more memory, same verdicts).
 */
/** The build takes well under a second; a builder still silent after this long is abandoned (threads build their own). */
const BUILD_TIMEOUT_MS = 60_000;

export async function buildSharedTables(entry = new URL('./shared-tables-entry.mjs', import.meta.url), timeoutMs = BUILD_TIMEOUT_MS): Promise<SharedTables | undefined> {
  const worker = new Worker(entry);
  let timer: NodeJS.Timeout | undefined;
  try {
    return await new Promise<SharedTables>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the table builder exited with code ${code}`)));
      timer = setTimeout(() => reject(new Error('the table builder timed out')), timeoutMs);
    });
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
    await worker.terminate();
  }
}
