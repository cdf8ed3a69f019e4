import { setFlagsFromString } from 'node:v8';

/**
 * How far a heap may grow past its live data before V8 runs the next full collection. V8 picks a factor between 1.1
 * and 4 from how fast it collects; under steady load it chooses a high one, so the main thread's old space reached
 * 110 MB with 40 MB live (npm run bench:memory): RSS that is garbage waiting. A fixed 20 % keeps it near the live data;
 * the extra collections are incremental and measured in the same run (docs/MEASUREMENTS.md, Memory). The flag is
 * process-wide and read at every collection, so it applies to the main thread and to every inspection thread alike.
 * 0 leaves V8's own choice.
 */
export function limitHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${Math.round(percent)}`);
}
