import config from '../../config/evolution.json' with { type: 'json' };
import { words } from '../inspect/rules/normalize.js';
import type { View } from '../inspect/types.js';
import { benignHasPhrase, type BenignCorpus } from './benign-corpus.js';
import type { Candidate } from './gate.js';

/**
 * The deterministic analyser, for machines without model access: the distinctive word n-grams of the attack's
 * content and decoded views that occur in no benign text. Words rare in the benign corpus weigh more (inverse
 * document frequency); n-grams inside the chunk the semantic guard found most attack-like get a bonus; tokens that
 * look like identifiers, numbers or placeholders never enter a phrase (they would not recur in another attack).
 * Returns phrase candidates, best first; the gate takes the first that passes.
 */

const STOPWORDS = new Set(config.stopwords);
const { minWords, maxWords, maxCandidates, maxWordChars, hintBonus } = config.offline;
const PLACEHOLDER_WORDS = new Set(['redacted', 'neutralized']);

interface Window {
  phrase: string;
  start: number;
  end: number;
  score: number;
}

export function offlineCandidates(views: readonly View[], corpus: BenignCorpus, hint?: string, family?: string): Candidate[] {
  const picked = rank(views, corpus, minWords, hint, family);
  // A short command may have fewer words than a phrase normally needs: the gate still asks for three.
  return picked.length > 0 ? picked : rank(views, corpus, config.gate.phraseMinWords, hint, family);
}

function rank(views: readonly View[], corpus: BenignCorpus, shortest: number, hint?: string, family?: string): Candidate[] {
  const n = corpus.items.length;
  const idf = (w: string) => Math.log((n + 1) / ((corpus.docFreq.get(w) ?? 0) + 1));
  const hinted = hint ? new Set(windowsOf(words(hint), shortest).map((w) => w.phrase)) : undefined;
  const scored = new Map<string, Window>();
  for (const view of views) {
    for (const ws of segments(view.text)) {
      for (const w of windowsOf(ws, shortest)) {
        if (scored.has(w.phrase)) continue;
        const content = ws.slice(w.start, w.end).filter(isContentWord);
      // Longer phrases are more specific but generalise less: the mean weight of a word decides, length breaks ties.
        let score = content.reduce((s, word) => s + idf(word), 0) / Math.sqrt(w.end - w.start);
        if (hinted?.has(w.phrase)) score *= hintBonus;
        scored.set(w.phrase, { ...w, score });
      }
    }
  }
  const ranked = [...scored.values()].sort((a, b) => b.score - a.score || a.phrase.localeCompare(b.phrase));
  const picked: Candidate[] = [];
  const used: string[] = [];
  for (const w of ranked) {
    if (picked.length >= maxCandidates) break;
    // Diversity: a candidate overlapping one already picked would fail or pass the gate for the same reason.
    if (used.some((p) => p.includes(w.phrase) || w.phrase.includes(p))) continue;
    if (benignHasPhrase(corpus, w.phrase)) continue;
    used.push(w.phrase);
    picked.push({ kind: 'phrase', pattern: w.phrase, ...(family ? { family } : {}) });
  }
  return picked;
}

/** Words per sentence or line: a phrase spanning two sentences would rarely recur in another attack. */
function segments(text: string): string[][] {
  return text
    .split(/(?<=[.!?;])\s+|\n+/)
    .map((part) => words(part, 20_000))
    .filter((ws) => ws.length > 0);
}

function windowsOf(ws: readonly string[], shortest: number): Window[] {
  const out: Window[] = [];
  for (let start = 0; start < ws.length; start++) {
    if (!usable(ws[start]) || STOPWORDS.has(ws[start])) continue;
    for (let len = shortest; len <= maxWords && start + len <= ws.length; len++) {
      const slice = ws.slice(start, start + len);
      if (!slice.every(usable)) break;
      if (STOPWORDS.has(slice[len - 1])) continue;
      if (slice.filter(isContentWord).length < 2) continue;
      out.push({ phrase: slice.join(' '), start, end: start + len, score: 0 });
    }
  }
  return out;
}

/** A token that could recur in another attack: not an id, a number, a hash or a placeholder. */
function usable(w: string): boolean {
  if (w.length > maxWordChars || PLACEHOLDER_WORDS.has(w)) return false;
  // A single letter other than `a`/`I` is a piece of a word or a flag (`curl -s`): the gate refuses it in a phrase.
  if (w.length === 1 && /\p{L}/u.test(w) && w !== 'a' && w !== 'i') return false;
  if (/^\d{6,}$/.test(w)) return false;
  if (w.length >= 5 && /\d/.test(w) && /\p{L}/u.test(w)) return false;
  return !/^[0-9a-f]{8,}$/.test(w);
}

function isContentWord(w: string): boolean {
  return w.length >= 3 && !STOPWORDS.has(w) && /\p{L}/u.test(w);
}
