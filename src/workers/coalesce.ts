import type { InspectionRequest, Verdict } from '../inspect/types.js';
import { allAborted } from './dispatch.js';

// Only small texts share a task: a large one (or a slow one) then cannot delay or fail its neighbours.
const SHAREABLE_CHARS = 8 * 1024;
const MAX_ITEMS_PER_TASK = 64;

interface Waiting {
  requests: InspectionRequest[];
  resolve: (verdicts: Verdict[]) => void;
  reject: (err: unknown) => void;
  /** Aborted when the request that waits for these verdicts is gone. */
  gone?: AbortSignal;
}

/**
 * Coalesces the inspections that arrive within one turn of the event loop into at most `lanes` pool tasks. Under
 * load, one message to a thread then carries many requests instead of one: the per-task cost (structured clone,
 * MessagePort hop, promise bookkeeping) was a fifth of the event loop's time at 50 concurrent requests. A lone request
 * waits one setImmediate, microseconds.
 */
export function coalesce(
  run: (requests: InspectionRequest[], gone?: AbortSignal) => Promise<Verdict[]>,
  lanes: number,
): (requests: InspectionRequest[], gone?: AbortSignal) => Promise<Verdict[]> {
  let waiting: Waiting[] = [];
  let scheduled = false;
  /** Tasks handed to `run` and not settled yet. */
  let inFlight = 0;

  const flush = () => {
    scheduled = false;
    // A request already gone by now is never inspected.
    const batch = waiting.filter((w) => {
      if (w.gone?.aborted) w.reject(new DOMException('request gone', 'AbortError'));
      return !w.gone?.aborted;
    });
    waiting = [];
    const groups: Waiting[][] = [];
    let open: Waiting[] = [];
    let items = 0;
    const perLane = Math.max(1, Math.ceil(batch.reduce((n, w) => n + w.requests.length, 0) / lanes));
    for (const w of batch) {
      if (w.requests.some((r) => r.content.length > SHAREABLE_CHARS)) {
        groups.push([w]);
        continue;
      }
      if (open.length > 0 && (items + w.requests.length > Math.min(perLane, MAX_ITEMS_PER_TASK))) {
        groups.push(open);
        open = [];
        items = 0;
      }
      open.push(w);
      items += w.requests.length;
    }
    if (open.length > 0) groups.push(open);
    for (const group of groups) {
      // The task can be dropped while queued once every request in it is gone.
      inFlight++;
      run(group.flatMap((w) => w.requests), allAborted(group.map((w) => w.gone))).finally(() => inFlight--).then(
        (verdicts) => {
          let at = 0;
          for (const w of group) {
            w.resolve(verdicts.slice(at, at + w.requests.length));
            at += w.requests.length;
          }
        },
        (err) => group.forEach((w) => w.reject(err)),
      );
    }
  };

  return (requests, gone) =>
    new Promise<Verdict[]>((resolve, reject) => {
      waiting.push({ requests, resolve, reject, gone });
      // An idle pool has nothing to batch with: the request goes at once. Once tasks are in flight, whatever arrives
      // within the turn shares a task.
      if (inFlight === 0 && !scheduled) return flush();
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    });
}
