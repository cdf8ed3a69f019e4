// Character 5-gram Jaccard similarity and a near-duplicate search that does not compare every pair: with a global
// order of grams (rarest first), two sets with Jaccard ≥ t always share a gram within the first |x| - ⌈t·|x|⌉ + 1
// grams of each (prefix filtering, Chaudhuri et al. 2006), so only documents sharing a prefix gram are compared.

export const GRAM = 5;

/** Lower-case, whitespace collapsed: near-duplicates that differ only in case or spacing still match. */
export function normalise(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** Sorted distinct 32-bit FNV-1a hashes of the character 5-grams (the whole text when it is shorter). */
export function shingles(text: string): Uint32Array {
  const points = Array.from(normalise(text), (c) => c.codePointAt(0)!);
  const out = new Set<number>();
  const last = Math.max(0, points.length - GRAM);
  for (let i = 0; i <= last; i++) {
    let h = 0x811c9dc5;
    for (let k = i; k < Math.min(i + GRAM, points.length); k++) {
      h ^= points[k];
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    out.add(h);
  }
  return Uint32Array.from(out).sort();
}

export function jaccard(a: Uint32Array, b: Uint32Array): number {
  let i = 0;
  let j = 0;
  let common = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      common++;
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
  }
  const union = a.length + b.length - common;
  return union === 0 ? 1 : common / union;
}

export interface Doc {
  id: string;
  text: string;
}

export interface NearDuplicate {
  id: string;
  match: string;
  similarity: number;
}

const prefixLength = (size: number, t: number) => size - Math.ceil(t * size) + 1;

/**
 * Walks `candidates` in order and reports every one whose 5-gram Jaccard with a `reference` document or with an
 * earlier, kept candidate is ≥ `threshold`; the first of a near-duplicate group is kept.
 */
export function findNearDuplicates(reference: Doc[], candidates: Doc[], threshold = 0.5): NearDuplicate[] {
  const refSets = reference.map((d) => shingles(d.text));
  const candSets = candidates.map((d) => shingles(d.text));
  const df = new Map<number, number>();
  for (const set of [...refSets, ...candSets]) for (const g of set) df.set(g, (df.get(g) ?? 0) + 1);
  const prefix = (set: Uint32Array) =>
    [...set].sort((x, y) => df.get(x)! - df.get(y)! || x - y).slice(0, prefixLength(set.length, threshold));

  const docs: { id: string; set: Uint32Array }[] = [];
  const index = new Map<number, number[]>();
  const add = (id: string, set: Uint32Array) => {
    const n = docs.push({ id, set }) - 1;
    for (const g of prefix(set)) {
      const list = index.get(g);
      if (list) list.push(n);
      else index.set(g, [n]);
    }
  };
  reference.forEach((d, i) => add(d.id, refSets[i]));

  const found: NearDuplicate[] = [];
  candidates.forEach((d, i) => {
    const set = candSets[i];
    const seen = new Set<number>();
    let best: NearDuplicate | undefined;
    for (const g of prefix(set)) {
      for (const n of index.get(g) ?? []) {
        if (seen.has(n)) continue;
        seen.add(n);
        const other = docs[n].set;
        if (other.length < threshold * set.length || set.length < threshold * other.length) continue;
        const s = jaccard(set, other);
        if (s >= threshold && (!best || s > best.similarity)) best = { id: d.id, match: docs[n].id, similarity: s };
      }
    }
    if (best) found.push(best);
    else add(d.id, set);
  });
  return found;
}
