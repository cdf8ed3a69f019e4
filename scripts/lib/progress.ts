import { SingleBar } from 'cli-progress';
import type { Writable } from 'node:stream';

/**
 * A progress bar for the long runs (eval, train, cross-validation) on stderr, so stdout keeps only the figures.
 * `noTTYOutput` keeps it visible in CI logs, where stderr is not a terminal: there it prints a line every
 * `notTTYSchedule` ms instead of redrawing. `detail` names the current unit (a fold, a source): never content.
 */
export interface Progress {
  tick(detail?: string): void;
  stop(): void;
}

export function progressBar(label: string, total: number, options: { stream?: Writable; notTTYScheduleMs?: number } = {}): Progress {
  const bar = new SingleBar({
    format: `${label.padEnd(12)} [{bar}] {value}/{total} {percentage}% eta {eta_formatted} {detail}`,
    stream: options.stream ?? process.stderr,
    noTTYOutput: true,
    notTTYSchedule: options.notTTYScheduleMs ?? 5000,
    hideCursor: true,
    etaBuffer: 50,
  });
  bar.start(total, 0, { detail: '' });
  return {
    tick(detail = '') {
      bar.increment(1, { detail: detail.slice(0, 40) });
    },
    stop() {
      bar.stop();
    },
  };
}
