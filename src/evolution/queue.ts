import { LRUCache } from 'lru-cache';
import type { Kind } from '../inspect/types.js';
import { MEMORY_BUDGETS, byteBounded } from '../memory/budgets.js';

/** An attack waiting for analysis. Only the redacted, vocabulary-masked text (src/evolution/content.ts), held in memory until analysed, never written anywhere; `hash` is per tenant. */
export interface Job {
  tenantId: string;
  kind: Kind;
  text: string;
  hash: string;
  family?: string;
  /** `verdict` (HIGH/BLOCK) or `feedback` (a reported miss: its rule always waits for an operator). */
  origin: 'verdict' | 'feedback';
  /**
   * For a verdict: the independent detector that judged it HIGH (src/evolution/evidence.ts), `layer/type`. Absent:
   * only a statistical model did, and the loop records it as refused without analysing it.
   */
  evidence?: string;
}

export type OfferResult = 'queued' | 'duplicate' | 'full' | 'tenant_full';

/**
 * The bounded in-process queue between judge() and the loop. Offering is O(1) and never blocks a request: a full
 * queue drops the attack (it will be seen again if it matters). A tenant holds at most its share of the slots, so one
 * tenant's flood cannot keep every other tenant's attacks out. Hashes seen recently are dropped at once; the
 * database claim (src/storage/evolution-analyses.ts) is what de-duplicates across replicas and restarts.
 */
export class EvolutionQueue {
  private readonly jobs: Job[] = [];
  private readonly perTenant = new Map<string, number>();
  private readonly recent = new LRUCache<string, true>({ ...byteBounded(MEMORY_BUDGETS.evolutionRecent), ttl: 10 * 60_000 });
  private readonly tenantSlots: number;

  constructor(private readonly limit: number, tenantSharePct: number) {
    this.tenantSlots = Math.max(1, Math.floor((limit * tenantSharePct) / 100));
  }

  get length(): number {
    return this.jobs.length;
  }

  seen(hash: string): boolean {
    return this.recent.has(hash);
  }

  offer(job: Job): OfferResult {
    if (this.recent.has(job.hash)) return 'duplicate';
    if (this.jobs.length >= this.limit) return 'full';
    const held = this.perTenant.get(job.tenantId) ?? 0;
    if (held >= this.tenantSlots) return 'tenant_full';
    this.recent.set(job.hash, true);
    this.perTenant.set(job.tenantId, held + 1);
    this.jobs.push(job);
    return 'queued';
  }

  take(): Job | undefined {
    const job = this.jobs.shift();
    if (job) {
      const held = (this.perTenant.get(job.tenantId) ?? 1) - 1;
      if (held <= 0) this.perTenant.delete(job.tenantId);
      else this.perTenant.set(job.tenantId, held);
    }
    return job;
  }

  clear(): void {
    this.jobs.length = 0;
    this.perTenant.clear();
  }
}
