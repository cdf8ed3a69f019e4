import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { BastionError } from '../errors.js';
import type { InspectionRequest, Verdict } from '../inspect/types.js';

export interface InspectorOptions {
  /** 0 = available cores. */
  threads: number;
  /** Tasks waiting for a thread before new ones are refused with 503. */
  maxQueue: number;
  /** Per-request deadline; a task past it is aborted (its thread is replaced) and answered 504. */
  timeoutMs: number;
  /** Worker module; tests inject faulty ones to prove failures never become "allowed". */
  workerUrl?: URL;
}

export interface Inspector {
  inspect(requests: InspectionRequest[]): Promise<Verdict[]>;
  readonly threads: number;
  /** Resolves once every thread has loaded the pipeline, so the first request never pays for module loading. */
  warmUp(): Promise<void>;
  close(): Promise<void>;
}

/** The Piscina pool that runs the pipeline off the event loop (src/workers/inspect-task.ts). */
export function createInspectorPool(options: InspectorOptions): Inspector {
  const threads = options.threads || availableParallelism();
  const pool = new Piscina({
    filename: (options.workerUrl ?? new URL('./worker-entry.mjs', import.meta.url)).href,
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: 60_000,
    // Pipeline work is CPU-bound: one task per thread at a time keeps latency predictable.
    concurrentTasksPerWorker: 1,
  });
  // Our own admission bound: Piscina hands tasks to busy threads, so its maxQueue does not cap waiting work.
  const capacity = threads + options.maxQueue;
  let inFlight = 0;
  return {
    threads,
    async inspect(requests) {
      if (inFlight >= capacity) throw new BastionError('OVERLOADED', { headers: { 'retry-after': '1' } });
      inFlight++;
      try {
        return (await pool.run({ requests }, { signal: AbortSignal.timeout(options.timeoutMs) })) as Verdict[];
      } catch (err) {
        throw poolError(err);
      } finally {
        inFlight--;
      }
    },
    async warmUp() {
      await Promise.all(Array.from({ length: threads }, () => pool.run({ requests: [] })));
    },
    close: () => pool.destroy(),
  };
}

function poolError(err: unknown): BastionError {
  const e = err as { name?: string; message?: string };
  if (e.name === 'AbortError' || e.name === 'TimeoutError') return new BastionError('INSPECTION_TIMEOUT', { cause: err });
  return new BastionError('INSPECTION_FAILED', { cause: err });
}
