/** The reason of every drop for a gone request: one object, not a DOMException with a stack per request. */
export const REQUEST_GONE = Object.freeze(new DOMException('request gone', 'AbortError'));

/** What a dispatcher has done since it was created: observability, and how tests prove cancelled work never ran. */
export interface DispatchCounts {
  /** Tasks handed to a thread. */
  started: number;
  /** Queued tasks dropped because nobody was waiting for them any more. */
  cancelled: number;
  /** Tasks waiting for a thread right now. */
  queued: number;
  /** Tasks running on a thread right now (metrics: pool utilisation). */
  running: number;
}

interface Job<T> {
  work: (signal: AbortSignal) => Promise<T>;
  resolve: (value: T) => void;
  reject: (err: unknown) => void;
  controller: AbortController;
  timer: NodeJS.Timeout;
  gone?: AbortSignal;
  onGone?: () => void;
}

/**
 * Hands tasks to at most `slots` threads and keeps the rest in its own queue. Piscina would queue them too, but a task
 * aborted there cannot be told apart from a running one, whose abort replaces the thread: here, a queued task whose
 * requests are gone (answered or disconnected) is simply dropped and never runs, so an overload ends with the load.
 * The deadline covers queueing and running: missed while queued, the task is dropped; while running, `work`'s signal
 * aborts it.
 */
export function createDispatcher(slots: number, timeoutMs: number) {
  const queue = new Set<Job<unknown>>();
  let running = 0;
  const counts = { started: 0, cancelled: 0 };

  const detach = (job: Job<unknown>) => {
    if (job.onGone) job.gone!.removeEventListener('abort', job.onGone);
  };
  const start = (job: Job<unknown>) => {
    running++;
    counts.started++;
    detach(job);
    job
      .work(job.controller.signal)
      .then(job.resolve, job.reject)
      .finally(() => {
        clearTimeout(job.timer);
        running--;
        next();
      });
  };
  const next = () => {
    while (running < slots && queue.size > 0) {
      const job = queue.values().next().value!;
      queue.delete(job);
      start(job);
    }
  };
  /** Removes a job that is still queued; false when it already runs. */
  const drop = (job: Job<unknown>, reason: unknown): boolean => {
    if (!queue.delete(job)) return false;
    clearTimeout(job.timer);
    detach(job);
    job.reject(reason);
    return true;
  };

  return {
    /**
     * `gone`: aborted when nobody waits for the result any more. `since`: when the work began waiting (performance.now()),
     * if before this call: the deadline counts from then.
     */
    submit<T>(work: (signal: AbortSignal) => Promise<T>, gone?: AbortSignal, since?: number): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        if (gone?.aborted) {
          counts.cancelled++;
          reject(REQUEST_GONE);
          return;
        }
        const job = { work, resolve, reject, controller: new AbortController(), gone } as Job<unknown>;
        job.timer = setTimeout(() => {
          const err = new DOMException('inspection deadline', 'TimeoutError');
          if (!drop(job, err)) job.controller.abort(err);
        }, since === undefined ? timeoutMs : Math.max(0, timeoutMs - (performance.now() - since)));
        if (gone) {
          job.onGone = () => {
            if (drop(job, REQUEST_GONE)) counts.cancelled++;
          };
          gone.addEventListener('abort', job.onGone, { once: true });
        }
        queue.add(job);
        next();
      });
    },
    counts: (): DispatchCounts => ({ ...counts, queued: queue.size, running }),
  };
}

/** An AbortSignal aborted once every one of `signals` is (any missing signal: never). */
export function allAborted(signals: (AbortSignal | undefined)[]): AbortSignal | undefined {
  if (signals.length === 0 || signals.some((s) => s === undefined)) return undefined;
  if (signals.length === 1) return signals[0];
  const controller = new AbortController();
  let left = signals.length;
  const onAbort = () => {
    if (--left === 0) controller.abort(REQUEST_GONE);
  };
  for (const s of signals as AbortSignal[]) {
    if (s.aborted) onAbort();
    else s.addEventListener('abort', onAbort, { once: true });
  }
  return controller.signal;
}
