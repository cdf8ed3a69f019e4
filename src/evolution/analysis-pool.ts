import { Piscina } from 'piscina';
import type { AnalysisOutcome, AnalysisTask } from './analysis-task.js';

/**
 * One thread, started on first use and retired when idle, for the loop's CPU work (views, offline analysis, the
 * gate over the benign corpus). Separate from the inspection pool so an analysis never occupies a thread a request
 * is waiting for, and bounded by a deadline so a pathological case cannot wedge the loop.
 */
export interface AnalysisPool {
  run(task: AnalysisTask): Promise<AnalysisOutcome>;
  close(): Promise<void>;
}

export function createAnalysisPool(timeoutMs: number): AnalysisPool {
  let pool: Piscina | undefined;
  return {
    async run(task) {
      pool ??= new Piscina({
        filename: new URL('./analysis-entry.mjs', import.meta.url).href,
        minThreads: 0,
        maxThreads: 1,
        idleTimeout: 120_000,
        concurrentTasksPerWorker: 1,
      });
      return (await pool.run(task, { signal: AbortSignal.timeout(timeoutMs) })) as AnalysisOutcome;
    },
    async close() {
      await pool?.destroy();
    },
  };
}
