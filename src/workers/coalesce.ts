import type { InspectionRequest, Verdict } from '../inspect/types.js';
import { allAborted, REQUEST_GONE } from './dispatch.js';

// Only small texts share a task: a large one (or a slow one) then cannot delay or fail its neighbours.
const SHAREABLE_CHARS = 8 * 1024;
const MAX_ITEMS_PER_TASK = 64;

interface Waiting {
  requests: InspectionRequest[];
  resolve: (verdicts: Verdict[]) => void;
  reject: (err: unknown) => void;
  /** Aborted when the request that waits for these verdicts is gone. */
  gone?: AbortSignal;
  /** When it began waiting (performance.now()). */
  since: number;
  /** Drops this entry while it waits (its request is gone); removed once the entry is handed to a task. */
  onGone?: () => void;
}

export interface Coalesced {
  (requests: InspectionRequest[], gone?: AbortSignal): Promise<Verdict[]>;
  /** Inspections waiting here for a lane, and those dropped while waiting because their request was gone. */
  counts(): { waiting: number; cancelled: number };
}

/**
 * Coalesces inspections into at most `lanes` pool tasks at a time. A request that finds a lane free goes at once (an
 * idle pool) or with what else arrives in the same turn of the event loop; while every lane is busy, requests wait
 * here and each lane that frees up takes its share of them in one task. Under load one message to a thread then carries
 * many requests instead of one: the per-task cost (structured clone, waking the thread, promise bookkeeping) is paid
 * once per batch, not per request. Waiting here is bounded by the running tasks' deadline.
 */
export function coalesce(
  /** `since`: when the group's oldest request began waiting here, so that its deadline covers the wait. */
  run: (requests: InspectionRequest[], gone?: AbortSignal, since?: number) => Promise<Verdict[]>,
  lanes: number,
): Coalesced {
  let waiting: Waiting[] = [];
  let cancelled = 0;
  let scheduled = false;
  /** Tasks handed to `run` and not settled yet. */
  let inFlight = 0;
  const settled = () => {
    inFlight--;
    if (!scheduled) flush();
  };

  const flush = () => {
    scheduled = false;
    const free = lanes - inFlight;
    if (free <= 0 || waiting.length === 0) return; // the next task to settle flushes
    // Each free thread takes its share of what waits, counted as if every thread were free: one thread taking a large
    // batch would leave the next one to free up idle. What is left waits for it.
    const cap = Math.min(MAX_ITEMS_PER_TASK, Math.max(1, Math.ceil(waiting.reduce((n, w) => n + w.requests.length, 0) / lanes)));
    const groups: Waiting[][] = [];
    let open: Waiting[] = [];
    let items = 0;
    let taken = 0;
    const close = () => {
      if (open.length > 0) groups.push(open);
      open = [];
      items = 0;
    };
    for (const w of waiting) {
      const large = w.requests.some((r) => r.content.length > SHAREABLE_CHARS);
      if (large || (open.length > 0 && items + w.requests.length > cap)) close();
      if (groups.length >= free) break;
      taken++;
      if (large) groups.push([w]);
      else {
        open.push(w);
        items += w.requests.length;
      }
    }
    close();
    for (const w of waiting.slice(0, taken)) if (w.onGone) w.gone!.removeEventListener('abort', w.onGone);
    waiting = waiting.slice(taken);
    for (const group of groups) {
      // The task can be dropped while queued once every request in it is gone.
      inFlight++;
      run(group.flatMap((w) => w.requests), allAborted(group.map((w) => w.gone)), Math.min(...group.map((w) => w.since))).finally(settled).then(
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

  const coalesced = (requests: InspectionRequest[], gone?: AbortSignal) =>
    new Promise<Verdict[]>((resolve, reject) => {
      if (gone?.aborted) {
        cancelled++;
        return reject(REQUEST_GONE);
      }
      const entry: Waiting = { requests, resolve, reject, gone, since: performance.now() };
      if (gone) {
        // A request gone while its inspection waits here is dropped at once: it never runs and frees its place.
        entry.onGone = () => {
          const at = waiting.indexOf(entry);
          if (at === -1) return;
          waiting.splice(at, 1);
          cancelled++;
          reject(REQUEST_GONE);
        };
        gone.addEventListener('abort', entry.onGone, { once: true });
      }
      waiting.push(entry);
      // An idle pool has nothing to batch with: the request goes at once. With tasks in flight, whatever arrives within
      // the turn shares a task (or, every lane busy, waits for the next to free up).
      if (inFlight === 0 && !scheduled) return flush();
      if (!scheduled && inFlight < lanes) {
        scheduled = true;
        setImmediate(flush);
      }
    });
  return Object.assign(coalesced, { counts: () => ({ waiting: waiting.length, cancelled }) });
}
