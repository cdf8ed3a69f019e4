import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { RESYNC, type Broadcast } from '../redis/broadcast.js';
import { activeFingerprint, activeRules, type ScopedRule } from '../storage/evolved-rules.js';
import type { Database } from '../storage/schema.js';
import type { Inspector } from '../workers/pool.js';
import type { VerdictCache } from '../workers/verdict-cache.js';

export const RULES_CHANGED = 'rules_changed';

/**
 * The main thread's copy of the active rule set. The store is the truth; a `rules_changed` broadcast (Redis pub/sub
 * across replicas) makes every replica re-read it at once, and a periodic fingerprint check repairs a missed message.
 * A new set gets the next version number, goes to the inspection pool (each thread adopts it with its next task) and
 * empties the verdict cache, whose verdicts were computed under the old set. Requests in flight are never dropped:
 * they finish under the set their thread had.
 */
export class ActiveRules {
  private version = 0;
  private fingerprint = '';
  private rules: ScopedRule[] = [];
  private scopedTenants = new Set<string>();
  private reloading?: Promise<void>;
  private again = false;
  private timer?: NodeJS.Timeout;
  private soon?: NodeJS.Timeout;
  private loads = 0;

  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      inspector: Inspector;
      verdictCache: VerdictCache;
      broadcast: Broadcast;
      logger: Logger;
      maxRules: number;
      /** Imported rules loaded besides `maxRules` local ones. */
      maxImported?: number;
      /** How long `changedSoon` gathers changes before one reload. */
      debounceMs?: number;
    },
  ) {}

  /** How many times a new rule set was installed (each one empties the verdict cache). */
  get reloads(): number {
    return this.loads;
  }

  get current(): { version: number; rules: readonly ScopedRule[] } {
    return { version: this.version, rules: this.rules };
  }

  /**
   * What a request of `tenantId` carries to the pool as `rulesTenant`: the tenant itself when it has rules of its own
   * (not yet promoted), else undefined, so tenants with only the global set keep sharing verdict-cache entries.
   */
  scopeOf(tenantId: string | undefined): string | undefined {
    return tenantId !== undefined && this.scopedTenants.has(tenantId) ? tenantId : undefined;
  }

  /** Loads the set, subscribes to changes and starts the periodic check. */
  async start(resyncMs: number): Promise<void> {
    await this.reload();
    this.deps.broadcast.subscribe((message) => {
      if (message.type === RULES_CHANGED || message.type === RESYNC) this.reload().catch(() => {});
    });
    this.timer = setInterval(() => void this.resync(), resyncMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    clearTimeout(this.soon);
  }

  /**
   * `changed()` a little later: changes made within the debounce window (a burst of imported rules) cost one reload,
   * one verdict-cache flush and one broadcast instead of one each.
   */
  changedSoon(): void {
    if (this.soon) return;
    this.soon = setTimeout(() => {
      this.soon = undefined;
      void this.changed();
    }, this.deps.debounceMs ?? 250);
    this.soon.unref();
  }

  /** Re-reads the active rules; concurrent calls coalesce into at most one more read. */
  reload(): Promise<void> {
    if (this.reloading) {
      this.again = true;
      return this.reloading;
    }
    this.reloading = (async () => {
      try {
        do {
          this.again = false;
          await this.load();
        } while (this.again);
      } finally {
        this.reloading = undefined;
      }
    })();
    return this.reloading;
  }

  /** Tells every replica (this one included) that the active set changed. */
  async changed(): Promise<void> {
    // The change is stored: a failed local re-read is repaired by the periodic check, and the others must still hear of it.
    await this.reload().catch(() => this.deps.logger.warn({ event: RULES_CHANGED }, 'active rules not re-read; retrying at the next check'));
    await this.deps.broadcast.publish({ type: RULES_CHANGED }).catch(() => {
      // Stored already: other replicas pick it up at their next fingerprint check.
      this.deps.logger.warn({ event: RULES_CHANGED }, 'rule change not broadcast');
    });
  }

  private async resync(): Promise<void> {
    try {
      if ((await activeFingerprint(this.deps.db)) !== this.fingerprint) await this.reload();
    } catch {
      // Storage briefly unavailable: the current set stays in force; the next tick retries.
    }
  }

  private async load(): Promise<void> {
    const fingerprint = await activeFingerprint(this.deps.db);
    const rules = await activeRules(this.deps.db, this.deps.maxRules, this.deps.maxImported ?? 0);
    this.fingerprint = fingerprint;
    if (sameRules(rules, this.rules)) return;
    this.rules = rules;
    this.scopedTenants = new Set(rules.flatMap((r) => (r.tenantId === undefined ? [] : [r.tenantId])));
    this.version++;
    this.loads++;
    this.deps.inspector.setRules({ version: this.version, rules });
    this.deps.verdictCache.clear();
    this.deps.logger.info({ event: 'rules_loaded', version: this.version, rules: rules.length }, 'evolved rules loaded');
  }
}

function sameRules(a: readonly ScopedRule[], b: readonly ScopedRule[]): boolean {
  return (
    a.length === b.length &&
    a.every((r, i) => r.id === b[i].id && r.pattern === b[i].pattern && r.kind === b[i].kind && r.family === b[i].family && r.tenantId === b[i].tenantId)
  );
}
