import { SingleBar } from 'cli-progress';
import type { Writable } from 'node:stream';

/**
 * A progress bar for the long runs (eval, train, cross-validation) on stderr, so stdout keeps only the figures.
 * `noTTYOutput` keeps it visible in CI logs, where stderr is not a terminal: there it prints a line every
 * `notTTYSchedule` ms instead of redrawing. `detail` names the current unit (a fold, a source): never content.
 *
 * cli-progress redraws from a timer, and the runs it follows are synchronous (scoring and retraining never yield to
 * the event loop), so its timer would fire only after the run: the bar would jump from 0 % to 100 %. Each tick
 * therefore redraws itself once the interval has passed (`now` is injectable for tests).
 */
export interface Progress {
  tick(detail?: string): void;
  stop(): void;
}

export function progressBar(
  label: string,
  total: number,
  options: { stream?: Writable; notTTYScheduleMs?: number; now?: () => number } = {},
): Progress {
  const stream = options.stream ?? process.stderr;
  const now = options.now ?? Date.now;
  const tty = (stream as Writable & { isTTY?: boolean }).isTTY === true;
  const intervalMs = tty ? 100 : (options.notTTYScheduleMs ?? 5000);
  const bar = new SingleBar({
    format: `${label.padEnd(12)} [{bar}] {value}/{total} {percentage}% eta {eta_formatted} {detail}`,
    stream,
    noTTYOutput: true,
    notTTYSchedule: intervalMs,
    hideCursor: true,
    etaBuffer: 50,
  });
  bar.start(total, 0, { detail: '' });
  let drawnAt = now();
  return {
    tick(detail = '') {
      bar.increment(1, { detail: detail.slice(0, 40) });
      if (now() - drawnAt >= intervalMs) {
        drawnAt = now();
        bar.render();
      }
    },
    stop() {
      bar.stop();
    },
  };
}
