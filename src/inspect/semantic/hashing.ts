/**
 * Feature hashing ("the hashing trick", Weinberger et al. 2009): every feature string is mapped to one of
 * 2^bits buckets without keeping a vocabulary. 32-bit FNV-1a for strings, the MurmurHash3 finaliser to mix
 * combined hashes (bigrams, kind conjunctions). Pure integer arithmetic: the same index on every platform.
 */

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a over the UTF-16 code units of `text[start, end)`, continuing from `seed`. */
export function fnv1a(text: string, seed: number = FNV_OFFSET, start = 0, end: number = text.length): number {
  let h = seed | 0;
  for (let i = start; i < end; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  }
  return h >>> 0;
}

/** Feeds one code unit into an FNV-1a state. */
export function fnvStep(h: number, code: number): number {
  return Math.imul(h ^ code, FNV_PRIME);
}

export const FNV_SEED = FNV_OFFSET;

/** MurmurHash3 fmix32: spreads the bits of a combined hash over the whole word. */
export function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Hash of an ordered pair (bigrams, namespace + value). */
export function combine(a: number, b: number): number {
  return mix(Math.imul(a, 0x9e3779b1) ^ b);
}

/** Seeded PRNG (mulberry32) for deterministic shuffles in training and fold assignment. */
export function mulberry32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
