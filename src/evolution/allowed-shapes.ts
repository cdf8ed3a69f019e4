import { randomInt } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { fnv1a, words } from '../inspect/rules/normalize.js';

/**
 * What the loop keeps of a tenant's recently allowed traffic: the shapes of its texts, never the texts. A shape is
 * the set of keyed hashes (FNV-1a over a per-process random seed) of each text's word 3-grams, and how many texts
 * and characters were sampled; all in memory, never stored, never logged. The validation gate refuses a candidate
 * that this tenant's own allowed traffic already holds (`matches_allowed_traffic`): a rule made from an ordinary
 * sentence the models happened to block once ("quarterly results were strong this year…") matches its allowed
 * siblings and is refused, even where the benign regression set holds nothing like it.
 */

/** Word n-gram length of a shape: a phrase rule has at least three words. */
export const GRAM = 3;
/** Characters of one allowed text that are sampled (the start: bounds the work per request). */
const SAMPLED_CHARS = 2000;
/**
 * Distinct hashes kept per tenant (oldest forgotten first) and tenants kept (least recently seen forgotten): about
 * 40 bytes a hash (set entry and ring slot), so at most ~5 MB of the main thread's heap in all.
 */
const HASHES_PER_TENANT = 4096;
const TENANTS = 32;
/**
 * Every allowed text of a tenant's first ones is sampled (a first user's test traffic, where a rule made from a false
 * positive would hurt most), then one in SAMPLE_EVERY: at volume the same shapes recur, and the main thread's work per
 * request stays a fraction of a microsecond on average.
 */
const SAMPLE_ALL_FIRST = 256;
const SAMPLE_EVERY = 4;

export interface ShapeSample {
  seed: number;
  hashes: number[];
}

/**
 * The hashes of the word 3-grams of `ws` (one hash of the whole when it is shorter): each word hashed once with the
 * seed, three consecutive word hashes mixed into one (order matters), so sampling a text costs one pass over its words.
 */
export function gramHashes(ws: readonly string[], seed: number): number[] {
  if (ws.length === 0) return [];
  const h = ws.map((w) => fnv1a(w) ^ seed);
  if (ws.length < GRAM) return [h.reduce((acc, x) => mix(acc, x), seed) >>> 0];
  const out: number[] = [];
  for (let i = 0; i + GRAM <= ws.length; i++) out.push(mix(mix(mix(seed, h[i]), h[i + 1]), h[i + 2]) >>> 0);
  return out;
}

/** One step of a multiply-xorshift mix (32 bits): cheap, and unlike XOR it tells `a b c` from `c b a`. */
function mix(acc: number, x: number): number {
  let v = Math.imul(acc ^ x, 0x9e3779b1);
  v ^= v >>> 15;
  return Math.imul(v, 0x85ebca77);
}

/** A tenant's hashes: a set for lookups and a ring of insertion order, so the oldest is forgotten in O(1). */
class TenantShapes {
  readonly hashes = new Set<number>();
  private readonly ring = new Array<number>(HASHES_PER_TENANT);
  private next = 0;
  texts = 0;
  chars = 0;
  seen = 0;

  add(hash: number): void {
    if (this.hashes.has(hash)) return;
    if (this.hashes.size >= HASHES_PER_TENANT) this.hashes.delete(this.ring[this.next]);
    this.hashes.add(hash);
    this.ring[this.next] = hash;
    this.next = (this.next + 1) % HASHES_PER_TENANT;
  }
}

export class AllowedShapes {
  readonly seed = randomInt(0, 2 ** 31);
  private readonly tenants = new LRUCache<string, TenantShapes>({ max: TENANTS });

  /** Samples one allowed text of a tenant that the loop learns from. */
  record(tenantId: string, content: string): void {
    let shapes = this.tenants.get(tenantId);
    if (!shapes) this.tenants.set(tenantId, (shapes = new TenantShapes()));
    if (++shapes.seen > SAMPLE_ALL_FIRST && shapes.seen % SAMPLE_EVERY !== 0) return;
    const text = content.length > SAMPLED_CHARS ? content.slice(0, SAMPLED_CHARS) : content;
    for (const hash of gramHashes(words(text, 400), this.seed)) shapes.add(hash);
    shapes.texts++;
    shapes.chars += text.length;
  }

  /** What the analysis thread gets for one job: the seed and the tenant's hashes (none yet: an empty sample). */
  sample(tenantId: string): ShapeSample {
    return { seed: this.seed, hashes: [...(this.tenants.get(tenantId)?.hashes ?? [])] };
  }

  /** How much of a tenant's traffic is sampled (texts and characters), for the operator view and tests. */
  size(tenantId: string): { texts: number; chars: number; hashes: number } {
    const s = this.tenants.get(tenantId);
    return { texts: s?.texts ?? 0, chars: s?.chars ?? 0, hashes: s?.hashes.size ?? 0 };
  }
}
