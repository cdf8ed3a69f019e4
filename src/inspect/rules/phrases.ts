import { normalizePhrase } from './normalize.js';

/**
 * The normalised phrase set of `phrase` rules. Phrases are indexed by their first word, so a scan costs one map
 * lookup per word of the text plus a comparison only where a phrase could start.
 */
export class PhraseSet {
  private readonly byFirst = new Map<string, { words: string[]; id: string }[]>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Returns false for a pattern with no words. */
  add(id: string, pattern: string): boolean {
    const ws = normalizePhrase(pattern).split(' ').filter(Boolean);
    if (ws.length === 0) return false;
    const list = this.byFirst.get(ws[0]);
    if (list) list.push({ words: ws, id });
    else this.byFirst.set(ws[0], [{ words: ws, id }]);
    this.count++;
    return true;
  }

  /** Ids of the phrases that occur in the word sequence. */
  match(ws: readonly string[]): string[] {
    const found = new Set<string>();
    for (let i = 0; i < ws.length; i++) {
      const candidates = this.byFirst.get(ws[i]);
      if (!candidates) continue;
      for (const c of candidates) {
        if (found.has(c.id) || i + c.words.length > ws.length) continue;
        let j = 1;
        while (j < c.words.length && ws[i + j] === c.words[j]) j++;
        if (j === c.words.length) found.add(c.id);
      }
    }
    return [...found];
  }
}
