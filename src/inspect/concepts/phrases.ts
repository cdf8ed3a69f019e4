/**
 * The phrase syntax of the concept lexicons (config/concepts/*.json) and the one normalisation both the phrases and
 * the inspected text go through, so that they meet on the same form.
 *
 * Normal form: lower case, every run of characters that are neither letters, digits, combining marks nor one of
 * `= + #` (kept: they are what payload splitting is written with) becomes one space, and the text is padded with a
 * space on each side. A phrase then matches on word boundaries by carrying those spaces: ` bomb ` is the whole word,
 * ` bomb` (phrase `bomb*`) any word starting with it, `bomb` (phrase `*bomb*`) anywhere. Scripts written without
 * spaces between words (Han, kana, Hangul, Thai, Arabic) always match anywhere.
 *
 * A star inside a phrase (`wirus* komputer*`, Slavic inflections) splits it into parts that must follow each other
 * within a few characters: the Aho–Corasick automaton only matches literals, the parts are chained after it.
 */

import { forEachNormal } from './automaton.js';

const UNSPACED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Arabic}]/u;

/** The normal form of a text as a string (the scanner never builds it: see automaton.ts). */
export function normalizeText(text: string): string {
  const codes: number[] = [];
  forEachNormal(text, (code) => codes.push(code));
  return String.fromCharCode(...codes);
}

/** A phrase compiled to the literals of its parts (one part unless it has inner stars). */
export interface CompiledPhrase {
  parts: string[];
}

/** Compiles one phrase of the `a|b*|*c*` syntax; undefined when nothing is left after normalisation. */
export function compilePhrase(phrase: string): CompiledPhrase | undefined {
  const raw = phrase.trim().toLowerCase();
  if (raw.length === 0) return undefined;
  const unspaced = UNSPACED_SCRIPT.test(raw);
  const leftOpen = raw.startsWith('*');
  const words = raw.replace(/^\*/, '').split(/\s+/);
  const parts: string[] = [];
  let current: string[] = [];
  words.forEach((word, i) => {
    const stem = word.endsWith('*');
    const core = normalizeText(word.replace(/\*$/, '')).trim();
    if (core.length > 0) current.push(core);
    const last = i === words.length - 1;
    if ((stem || last) && current.length > 0) {
      const body = current.join(' ');
      const left = unspaced || (leftOpen && parts.length === 0) ? '' : ' ';
      const right = unspaced || stem ? '' : ' ';
      parts.push(`${left}${body}${right}`);
      current = [];
    }
  });
  return parts.length > 0 ? { parts } : undefined;
}

/** Splits a `|`-separated lexicon entry into phrases. */
export function phrasesOf(entry: string): string[] {
  return entry.split('|').map((p) => p.trim()).filter((p) => p.length > 0);
}
