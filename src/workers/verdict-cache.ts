import { hash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { InspectionRequest, Verdict } from '../inspect/types.js';
import { MEMORY_BUDGETS, approxBytes, byteBounded } from '../memory/budgets.js';

// Only small texts are cached: system prompts and templates repeat on every request of an app, big documents rarely do.
const MAX_CACHED_CHARS = 32 * 1024;

/** JSON with object keys sorted at every level: equal values give equal text whatever the insertion order. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

// The data plane hands the same cached policy object to every request of a tenant: serialise it once (policy objects
// are never mutated once built: TenantPolicies builds a new one on every change).
const policyTexts = new WeakMap<object, string>();
function policyText(policy: object): string {
  let text = policyTexts.get(policy);
  if (text === undefined) policyTexts.set(policy, (text = canonicalJson(policy)));
  return text;
}

/**
 * The pipeline is deterministic, so an identical text of the same kind under the same policy gets the same verdict.
 * Real chat traffic repeats its system prompt on every request; this LRU answers those without a pool round trip.
 * Bounded by bytes (an estimate of each verdict's heap size); a text enters on its second sighting; entries are never
 * logged; cleared whenever detection rules change.
 */
export class VerdictCache {
  private readonly lru?: LRUCache<string, Verdict>;
  // Admission (a TinyLFU-style doorkeeper): a text is cached the second time it is judged. Texts seen once — most of
  // a busy app's user messages — never take cache memory or push out the system prompts that do repeat.
  private readonly seenOnce?: LRUCache<string, true>;
  private gen = 0;

  constructor(maxBytes: number) {
    if (maxBytes > 0) {
      this.lru = new LRUCache<string, Verdict>(byteBounded<string, Verdict>(maxBytes, (v, k) => approxBytes(v, 3) + approxBytes(k)));
      this.seenOnce = new LRUCache<string, true>(byteBounded<string, true>(Math.min(MEMORY_BUDGETS.verdictDoorkeeper, maxBytes), (_v, k) => approxBytes(k)));
    }
  }

  /**
   * Everything in the request that can change the verdict is in the key: kind, provenance (role), strict and the
   * tenant's whole policy (canonical JSON, so two tenants share an entry only when their policies are equal).
   */
  key(req: InspectionRequest): string | undefined {
    if (!this.lru || req.content.length > MAX_CACHED_CHARS) return undefined;
    // ERS is part of the decision (a banned entity is always blocked), so only unbanned requests share entries.
    if (req.ers?.shadowBanned) return undefined;
    const policy = req.policy ? policyText(req.policy) : '';
    // The tenant whose own evolved rules apply (issue 10): its verdicts are never served to another tenant.
    const scope = (req as { rulesTenant?: string }).rulesTenant ?? '';
    // One-shot hash (no Hash object per text): the cheapest SHA-256 Node offers for a string.
    return hash('sha256', `${req.kind}\0${req.role ?? ''}\0${req.strict ? 1 : 0}\0${policy}\0${scope}\0${req.content}`, 'base64');
  }

  get(key: string | undefined): Verdict | undefined {
    return key ? this.lru?.get(key) : undefined;
  }

  /** Changes whenever the cache is cleared: read it before inspecting, hand it to set(). */
  get generation(): number {
    return this.gen;
  }

  /** A verdict computed under an older rule set (the cache was cleared meanwhile) is not stored. */
  set(key: string | undefined, verdict: Verdict, generation = this.gen): void {
    if (!key || generation !== this.gen || !this.lru) return;
    if (this.seenOnce!.delete(key)) this.lru.set(key, verdict);
    else this.seenOnce!.set(key, true);
  }

  clear(): void {
    this.gen++;
    this.lru?.clear();
  }

  /** Entries and estimated bytes held (the soak benchmark reports them). */
  usage(): { entries: number; bytes: number; doorkeeperBytes: number } {
    return { entries: this.lru?.size ?? 0, bytes: this.lru?.calculatedSize ?? 0, doorkeeperBytes: this.seenOnce?.calculatedSize ?? 0 };
  }
}
