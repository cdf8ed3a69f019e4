import config from '../../../config/obfuscation.json' with { type: 'json' };
import type { Span } from '../types.js';
import { COMMON_WORDS, isCommonWord } from './language.js';
import { DIGITS, LETTERS, asciiClass, classRuns } from './runs.js';

/**
 * ROT13, other Caesar shifts and reversed text. The words of a sentence-like segment that
 * are not English are looked up in two precomputed indexes of the common-word list: one by
 * Caesar "shape" (each word shifted to start with `a`, so every shift of a word shares its
 * key) and one of reversed words. A reading is kept only when most of the unknown words
 * (and at least three distinct ones) turn into common English words under one transform.
 */

export type CipherKind = 'rot13' | 'caesar' | 'reversed';

export interface CipherReading {
  kind: CipherKind;
  span: Span;
  text: string;
}

const SENTENCE = asciiClass(`${LETTERS}${DIGITS} ,.'"!?;:()-`);
const MIN_SEGMENT = 12;

export function shift(text: string, k: number): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x61 && c <= 0x7a) out += String.fromCharCode(((c - 0x61 + k) % 26) + 0x61);
    else if (c >= 0x41 && c <= 0x5a) out += String.fromCharCode(((c - 0x41 + k) % 26) + 0x41);
    else out += text[i];
  }
  return out;
}

/** The word shifted so that it starts with `a`: all Caesar shifts of a word share it. */
function caesarKey(word: string): string {
  return shift(word, (26 - (word.charCodeAt(0) - 0x61)) % 26);
}

function reverse(text: string): string {
  let out = '';
  for (let i = text.length - 1; i >= 0; i--) out += text[i];
  return out;
}

const BY_CAESAR_KEY = new Map<string, string[]>();
const REVERSED_COMMON = new Set<string>();
for (const word of COMMON_WORDS) {
  if (word.length < 3) continue;
  const key = caesarKey(word);
  const list = BY_CAESAR_KEY.get(key);
  if (list) list.push(word);
  else BY_CAESAR_KEY.set(key, [word]);
  REVERSED_COMMON.add(reverse(word));
}

/** Shifts word by word, keeping words that were English already (the cover text around a cipher). */
function shiftWords(text: string, k: number): string {
  return text.replace(/[A-Za-z]+/g, (w) => {
    const shifted = shift(w, k);
    return isCommonWord(w) && !isCommonWord(shifted) ? w : shifted;
  });
}

/** Hits per shift (index 1..25) and for reversal (index 0: shift 0 is never a hit); one pair per call, reset per segment. */
interface Tally {
  hits: Int32Array;
  long: Int32Array;
}

/** Distinct words count once: `DAN ... DAN` shifted to `HER ... HER` is one coincidence, not two. */
function readsAsLanguage(t: Tally, unknown: number, i: number): boolean {
  const lang = config.language;
  return t.hits[i] >= lang.minHits && t.long[i] >= lang.minLongHits && t.hits[i] / unknown >= lang.minHitShare;
}

/** Reversed function words (`eht`, `dna`, `fo`): reversed English always has some. */
const REVERSED_HINT = /(?:^|[^a-z])(?:eht|dna|uoy|rof|taht|siht|htiw|lla|era|ton|ruoy|fo|ot|si|ni)(?![a-z])/i;
/**
 * English letters are about 38% vowels (a, e, i, o, u); every Caesar shift of English has at
 * most about 30%. A long segment above the threshold (config) can only be plain or reversed
 * English, so the shift lookups are skipped for it.
 */
const VOWEL_SAMPLE = 40;

function englishLetters(seg: string): boolean {
  let letters = 0;
  let vowels = 0;
  for (let i = 0; i < seg.length; i++) {
    const c = seg.charCodeAt(i) | 0x20;
    if (c < 0x61 || c > 0x7a) continue;
    letters++;
    if (c === 0x61 || c === 0x65 || c === 0x69 || c === 0x6f || c === 0x75) vowels++;
  }
  return letters >= VOWEL_SAMPLE && vowels / letters >= config.language.englishVowelShare;
}

function readSegment(seg: string, t: Tally): { kind: CipherKind; text: string } | null {
  const plain = englishLetters(seg);
  if (plain && !REVERSED_HINT.test(seg)) return null;
  // The words (runs of a-z in the lower-cased segment) read in place: no array of every word.
  const lower = seg.toLowerCase();
  let long = 0;
  const unknown = new Set<string>();
  for (let i = 0; i < lower.length; ) {
    if (!isLower(lower.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    while (i < lower.length && isLower(lower.charCodeAt(i))) i++;
    if (i - start < 3) continue;
    long++;
    const w = lower.slice(start, i);
    if (!COMMON_WORDS.has(w)) unknown.add(w);
  }
  // Readable English has most of its words in the list; a cipher (even inside cover text) does not.
  if (unknown.size < config.language.minHits || unknown.size < long * config.language.minUnknownShare) return null;
  t.hits.fill(0);
  t.long.fill(0);
  for (const w of unknown) {
    const isLong = w.length >= 4 ? 1 : 0;
    if (REVERSED_COMMON.has(w)) {
      t.hits[0]++;
      t.long[0] += isLong;
    }
    const twins = BY_CAESAR_KEY.get(caesarKey(w));
    if (!twins) continue;
    for (const common of twins) {
      if (common.length !== w.length) continue;
      const k = (common.charCodeAt(0) - w.charCodeAt(0) + 26) % 26;
      t.hits[k]++;
      t.long[k] += isLong;
    }
  }
  let bestShift = 1;
  for (let k = 2; k < 26; k++) if (t.hits[k] > t.hits[bestShift]) bestShift = k;
  if (!plain && readsAsLanguage(t, unknown.size, bestShift)) {
    return { kind: bestShift === 13 ? 'rot13' : 'caesar', text: shiftWords(seg, bestShift) };
  }
  if (readsAsLanguage(t, unknown.size, 0)) return { kind: 'reversed', text: reverse(seg) };
  return null;
}

function isLower(c: number): boolean {
  return c >= 0x61 && c <= 0x7a;
}

function isAsciiLetter(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

function hasTwoSpaces(text: string, start: number, end: number): boolean {
  let spaces = 0;
  for (let i = start; i < end && spaces < 2; i++) if (text.charCodeAt(i) === 0x20) spaces++;
  return spaces >= 2;
}

/** Sentence-like runs cut into pieces of at most `maxLength`, trimmed to start with a letter. */
function segments(text: string, maxLength: number, maxChars: number): Span[] {
  const out: Span[] = [];
  let budget = maxChars;
  for (const run of classRuns(text, SENTENCE, MIN_SEGMENT, 4096)) {
    // A hidden sentence has spaces between its words; dotted names and base64 fragments do not.
    if (!hasTwoSpaces(text, run.start, run.end)) continue;
    for (let start = run.start; start < run.end && budget > 0; ) {
      while (start < run.end && !isAsciiLetter(text.charCodeAt(start))) start++;
      let end = Math.min(run.end, start + maxLength);
      if (end < run.end) {
        const space = text.lastIndexOf(' ', end);
        if (space > start + MIN_SEGMENT) end = space;
      }
      if (end - start >= MIN_SEGMENT) out.push({ start, end });
      budget -= end - start;
      start = end;
    }
    if (budget <= 0) break;
  }
  return out;
}

/** One reading per transform kind: accepted segments joined, spanning first to last. */
export function decodeCiphers(text: string, maxChars: number, maxLength: number): CipherReading[] {
  const found = new Map<CipherKind, CipherReading>();
  const tally: Tally = { hits: new Int32Array(26), long: new Int32Array(26) };
  for (const span of segments(text, maxLength, maxChars)) {
    const reading = readSegment(text.slice(span.start, span.end), tally);
    if (!reading) continue;
    const prev = found.get(reading.kind);
    if (prev) {
      prev.text += ` ${reading.text}`;
      prev.span.end = span.end;
    } else found.set(reading.kind, { kind: reading.kind, span: { ...span }, text: reading.text });
  }
  return [...found.values()];
}
