import type { Kysely } from 'kysely';
import { addFlagTally, type FlagCount } from './daily-flags.js';
import { addTally, emptyCounts, recordCounts, utcDay, type DayCounts, type StatVerdict } from './daily-stats.js';
import type { Database } from './schema.js';

/**
 * Batches the per-tenant daily aggregates the data plane records, so a /filter request does not pay for two
 * database writes: verdict metadata (risk, action, flag layer/category, secret counts — never content or flag details)
 * is summed in memory and written every `flushMs`, when `maxPending` verdicts are waiting, and on shutdown.
 * The portal's figures lag by at most `flushMs`.
 */
export class StatsBuffer {
  private pending = new Map<string, { tenantId: string; day: string; counts: DayCounts; flags: Map<string, FlagCount> }>();
  private count = 0;
  private flushing: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly onError: (err: unknown) => void,
    flushMs = 2000,
    private readonly maxPending = 10_000,
  ) {
    this.timer = setInterval(() => void this.flush(), flushMs);
    this.timer.unref();
  }

  add(tenantId: string, verdicts: readonly StatVerdict[], at = Date.now()): void {
    const day = utcDay(at);
    const key = `${tenantId}\0${day}`;
    let entry = this.pending.get(key);
    if (!entry) this.pending.set(key, (entry = { tenantId, day, counts: emptyCounts(), flags: new Map() }));
    // Running sums, not the verdicts: memory stays one row per tenant and day whatever the traffic.
    addTally(entry.counts, verdicts);
    addFlagTally(entry.flags, verdicts);
    this.count += verdicts.length;
    if (this.count >= this.maxPending) void this.flush();
  }

  /** Writes everything recorded so far; concurrent calls are serialised. */
  flush(): Promise<void> {
    const batch = this.pending;
    this.pending = new Map();
    this.count = 0;
    this.flushing = this.flushing.then(async () => {
      for (const { tenantId, day, counts, flags } of batch.values()) {
        if (counts.requests > 0) await recordCounts(this.db, tenantId, day, counts, [...flags.values()]).catch(this.onError);
      }
    });
    return this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
