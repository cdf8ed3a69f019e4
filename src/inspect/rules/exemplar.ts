import config from '../../../config/evolution.json' with { type: 'json' };
import { fnv1a, words } from './normalize.js';

/**
 * Nearest-neighbour memory for `exemplar` rules over hashed word n-grams (shingles). The similarity of a text to an
 * exemplar is containment, |E ∩ T| / |E|: the share of the exemplar's shingles found in the text, so an attack
 * pasted into a long e-mail still matches. An inverted index (shingle → exemplars) keeps a lookup linear in the text.
 */

const { shingleWords: N, threshold: THRESHOLD, minShingles: MIN_SHINGLES } = config.exemplar;

export function shingles(ws: readonly string[]): Set<number> {
  const out = new Set<number>();
  for (let i = 0; i + N <= ws.length; i++) out.add(fnv1a(ws.slice(i, i + N).join(' ')));
  return out;
}

/** Shingles of an exemplar pattern, or undefined when it is too short to be specific. */
export function exemplarShingles(pattern: string): Set<number> | undefined {
  const set = shingles(words(pattern, 2000));
  return set.size >= MIN_SHINGLES ? set : undefined;
}

export interface ExemplarHit {
  id: string;
  similarity: number;
}

export class ExemplarMemory {
  private readonly index = new Map<number, number[]>();
  private readonly entries: { id: string; size: number }[] = [];

  get size(): number {
    return this.entries.length;
  }

  /** Returns false (and stores nothing) for an exemplar too short to be specific. */
  add(id: string, pattern: string): boolean {
    const set = exemplarShingles(pattern);
    if (!set) return false;
    const slot = this.entries.push({ id, size: set.size }) - 1;
    for (const h of set) {
      const list = this.index.get(h);
      if (list) list.push(slot);
      else this.index.set(h, [slot]);
    }
    return true;
  }

  /** Exemplars whose containment in the text reaches the threshold, most similar first. */
  match(textShingles: ReadonlySet<number>, threshold = THRESHOLD): ExemplarHit[] {
    if (this.entries.length === 0) return [];
    const counts = new Map<number, number>();
    for (const h of textShingles) {
      const list = this.index.get(h);
      if (list) for (const slot of list) counts.set(slot, (counts.get(slot) ?? 0) + 1);
    }
    const hits: ExemplarHit[] = [];
    for (const [slot, count] of counts) {
      const similarity = count / this.entries[slot].size;
      if (similarity >= threshold) hits.push({ id: this.entries[slot].id, similarity });
    }
    return hits.sort((a, b) => b.similarity - a.similarity);
  }
}
