import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { shingles } from '../inspect/rules/exemplar.js';
import { words } from '../inspect/rules/normalize.js';
import type { MatchView } from '../inspect/rules/apply.js';
import type { Kind } from '../inspect/types.js';
import { viewsOf } from './views.js';

/**
 * The benign regression corpus (config/benign-regression.jsonl, built by scripts/build-benign-regression.ts; sources in datasets/NOTICE.md): texts no rule may match.
 * Each item is kept with the views the pipeline would scan and their words and shingles, computed once, so the gate
 * costs one pass per candidate. Also the document frequencies the offline analyser uses to judge distinctiveness.
 */

export const BENIGN_CORPUS_PATH = fileURLToPath(new URL('../../config/benign-regression.jsonl', import.meta.url));

export interface BenignItem {
  id: string;
  text: string;
  kind: Kind;
}

export interface BenignCorpus {
  items: readonly BenignItem[];
  /** Per item: its views with words and shingles. */
  samples: readonly MatchView[][];
  /** Every view's words as ` w1 w2 … \n`: ` ${phrase} ` occurs in it iff the phrase occurs in some benign view. */
  joined: string;
  /** Word → number of items containing it. */
  docFreq: ReadonlyMap<string, number>;
}

export function readBenignItems(path = BENIGN_CORPUS_PATH): BenignItem[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as BenignItem);
}

export function buildBenignCorpus(items: readonly BenignItem[]): BenignCorpus {
  const samples: MatchView[][] = [];
  const parts: string[] = [];
  const docFreq = new Map<string, number>();
  for (const item of items) {
    const views = viewsOf(item.text, item.kind).map((v) => {
      const ws = words(v.text);
      parts.push(` ${ws.join(' ')} \n`);
      return { ...v, words: ws, shingles: shingles(ws) };
    });
    samples.push(views);
    for (const w of new Set(views.flatMap((v) => v.words))) docFreq.set(w, (docFreq.get(w) ?? 0) + 1);
  }
  return { items, samples, joined: parts.join(''), docFreq };
}

/** True when the normalised phrase occurs in some benign text or view. */
export function benignHasPhrase(corpus: BenignCorpus, phrase: string): boolean {
  return corpus.joined.includes(` ${phrase} `);
}
