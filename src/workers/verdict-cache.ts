import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { InspectionRequest, Verdict } from '../inspect/types.js';

// Only small texts are cached: system prompts and templates repeat on every request of an app, big documents rarely do.
const MAX_CACHED_CHARS = 32 * 1024;

/**
 * The pipeline is deterministic, so an identical text of the same kind under the same policy gets the same verdict.
 * Real chat traffic repeats its system prompt on every request; this LRU answers those without a pool round trip.
 * Bounded by bytes; entries are never logged; cleared whenever detection rules change.
 */
export class VerdictCache {
  private readonly lru?: LRUCache<string, Verdict>;
  private gen = 0;

  constructor(maxBytes: number) {
    if (maxBytes > 0) {
      this.lru = new LRUCache<string, Verdict>({ maxSize: maxBytes, sizeCalculation: (v) => 512 + v.redacted_content.length * 2 });
    }
  }

  key(req: InspectionRequest): string | undefined {
    if (!this.lru || req.content.length > MAX_CACHED_CHARS) return undefined;
    // ERS is part of the decision (a banned entity is always blocked), so only unbanned requests share entries.
    if (req.ers?.shadowBanned) return undefined;
    const policy = req.policy ? JSON.stringify(req.policy) : '';
    return createHash('sha256').update(`${req.kind}\0${req.strict ? 1 : 0}\0${policy}\0`).update(req.content).digest('base64');
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
    if (key && generation === this.gen) this.lru?.set(key, verdict);
  }

  clear(): void {
    this.gen++;
    this.lru?.clear();
  }
}
