import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { addHits } from '../storage/evolved-rules.js';
import type { Database } from '../storage/schema.js';

/**
 * Rule hit counters. Counted in the main thread from the `evolved_rule` flags of returned verdicts (cached ones
 * included), persisted every few seconds as one increment per rule: never a write per request.
 */
export class HitCounter {
  private pending = new Map<string, number>();
  private timer?: NodeJS.Timeout;

  constructor(private readonly db: Kysely<Database>, private readonly logger: Logger) {}

  count(ruleIds: readonly string[]): void {
    for (const id of ruleIds) this.pending.set(id, (this.pending.get(id) ?? 0) + 1);
  }

  /** Hits counted here and not yet persisted (added to the stored count when rules are listed). */
  unflushed(id: string): number {
    return this.pending.get(id) ?? 0;
  }

  start(flushMs: number): void {
    this.timer = setInterval(() => void this.flush(), flushMs);
    this.timer.unref();
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      await addHits(this.db, batch);
    } catch {
      // Keep the counts for the next flush; the map is bounded by the number of rules.
      for (const [id, n] of batch) this.pending.set(id, (this.pending.get(id) ?? 0) + n);
      this.logger.warn({ event: 'rule_hits' }, 'rule hit counters not persisted; retrying later');
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
