import type { Kysely } from 'kysely';
import { recordVerdicts, utcDay, type StatVerdict } from './daily-stats.js';
import type { Database } from './schema.js';

/**
 * Batches the per-tenant daily aggregates the data plane records, so a /filter request does not pay for two
 * database writes: verdict metadata (risk, action, flag layer/type/category, secret types — never content or flag
 * details) is summed in memory and written every `flushMs`, when `maxPending` verdicts are waiting, and on shutdown.
 * The portal's figures lag by at most `flushMs`.
 */
export class StatsBuffer {
  private pending = new Map<string, { tenantId: string; at: number; verdicts: StatVerdict[] }>();
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
    const key = `${tenantId}\0${utcDay(at)}`;
    let entry = this.pending.get(key);
    if (!entry) this.pending.set(key, (entry = { tenantId, at, verdicts: [] }));
    for (const v of verdicts) {
      entry.verdicts.push({
        allowed: v.allowed,
        risk_level: v.risk_level,
        action: v.action,
        flags: v.flags.map((f) => ({ layer: f.layer, type: f.type, score: f.score, category: f.category })),
        secrets: v.secrets.map((s) => ({ type: s.type, start: 0, end: 0, pii: s.pii })),
        ers: v.ers,
      });
    }
    this.count += verdicts.length;
    if (this.count >= this.maxPending) void this.flush();
  }

  /** Writes everything recorded so far; concurrent calls are serialised. */
  flush(): Promise<void> {
    const batch = this.pending;
    this.pending = new Map();
    this.count = 0;
    this.flushing = this.flushing.then(async () => {
      for (const { tenantId, at, verdicts } of batch.values()) {
        await recordVerdicts(this.db, tenantId, verdicts, at).catch(this.onError);
      }
    });
    return this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
