/** Gives a held place back (once; later calls do nothing). */
export type Release = () => void;

interface Waiter {
  grant(release: Release): void;
}

/**
 * The judge's places in flight, shared fairly between tenants. A call that finds every place taken waits (at most
 * `maxWaitingPerTenant` of one tenant's calls wait; more are refused at once). When a place frees, it goes to the
 * waiting tenants in turn, and never to a tenant holding its share — max(1, floor(capacity / active tenants)), active
 * meaning with a call running or waiting — while a tenant below its share waits. With nobody else waiting, a tenant
 * may use every place (nothing idles for fairness' sake). Places are never taken back from a running call.
 */
export class FairSlots {
  private readonly running = new Map<string, number>();
  /** Waiting calls by tenant; the Map's order is the turn (a tenant served moves to the back). */
  private readonly waiting = new Map<string, Waiter[]>();
  private total = 0;

  constructor(readonly capacity: number, readonly maxWaitingPerTenant: number) {}

  /** A place, or undefined when this tenant already has its most calls waiting or `signal` ends the wait. */
  acquire(tenant: string, signal: AbortSignal): Promise<Release | undefined> {
    // A free place means nobody waits (every release hands its place on at once): take it.
    if (this.total < this.capacity) return Promise.resolve(this.grant(tenant));
    const queue = this.waiting.get(tenant) ?? [];
    if (queue.length >= this.maxWaitingPerTenant || signal.aborted) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const giveUp = () => {
        const at = queue.indexOf(waiter);
        if (at >= 0) queue.splice(at, 1);
        if (queue.length === 0 && this.waiting.get(tenant) === queue) this.waiting.delete(tenant);
        resolve(undefined);
      };
      const waiter: Waiter = {
        grant: (release) => {
          signal.removeEventListener('abort', giveUp);
          resolve(release);
        },
      };
      queue.push(waiter);
      this.waiting.set(tenant, queue);
      signal.addEventListener('abort', giveUp, { once: true });
    });
  }

  /** Tenants with a call running or waiting. */
  activeTenants(): number {
    let n = this.running.size;
    for (const tenant of this.waiting.keys()) if (!this.running.has(tenant)) n++;
    return n;
  }

  share(): number {
    return Math.max(1, Math.floor(this.capacity / Math.max(1, this.activeTenants())));
  }

  /** Calls running for one tenant (all tenants when omitted), and waiting. */
  counts(tenant?: string): { running: number; waiting: number } {
    if (tenant === undefined) return { running: this.total, waiting: [...this.waiting.values()].reduce((n, q) => n + q.length, 0) };
    return { running: this.running.get(tenant) ?? 0, waiting: this.waiting.get(tenant)?.length ?? 0 };
  }

  private grant(tenant: string): Release {
    this.total++;
    this.running.set(tenant, (this.running.get(tenant) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total--;
      const left = this.running.get(tenant)! - 1;
      if (left === 0) this.running.delete(tenant);
      else this.running.set(tenant, left);
      this.handOn();
    };
  }

  /** The freed place goes to the first waiting tenant below its share, else to the first waiting tenant. */
  private handOn(): void {
    if (this.total >= this.capacity || this.waiting.size === 0) return;
    const share = this.share();
    let chosen: string | undefined;
    for (const tenant of this.waiting.keys()) {
      if ((this.running.get(tenant) ?? 0) < share) {
        chosen = tenant;
        break;
      }
    }
    chosen ??= this.waiting.keys().next().value!;
    const queue = this.waiting.get(chosen)!;
    const waiter = queue.shift()!;
    this.waiting.delete(chosen);
    if (queue.length > 0) this.waiting.set(chosen, queue);
    waiter.grant(this.grant(chosen));
  }
}
