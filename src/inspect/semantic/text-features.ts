import lexicon from '../../../config/semantic-lexicon.json' with { type: 'json' };
import { combine, fnv1a, fnvStep, FNV_SEED, mix } from './hashing.js';
import type { FeatureSink } from './feature-sink.js';

/**
 * Language features of one chunk: character 3/4/5-grams (script-agnostic, robust to spelling tricks and to
 * languages without spaces), word unigrams and bigrams, and the first word of each sentence or line
 * (imperatives such as "ignore", "write", "print" open injected instructions), plus two pooled lexicon features
 * (config/semantic-lexicon.json: a task verb or a question word opening a sentence, "your answer"-style
 * references to the assistant's output). Word features are emitted twice,
 * once shared and once conjoined with the content kind, so one model learns that "write a poem" is an ordinary
 * prompt but an injected instruction inside a tool result ("frustratingly easy domain adaptation", Daumé III 2007).
 * Digits are folded to 0 so that amounts, dates and ids do not fragment the vocabulary. One pass, linear.
 */

const NS_CHAR = 0x1f3a5c71;
const NS_WORD = 0x2b7e1516;
const NS_BIGRAM = 0x3c6ef372;
const NS_INITIAL = 0x4a09e667;
const NS_LONG = 0x5be0cd19;
const NS_LEXICON = 0x6a09e667;

/** Word hashes exactly as the scanner below computes them (digits folded to 0). */
function wordHash(word: string): number {
  return fnv1a(word.replace(/[0-9]/g, '0'));
}

/**
 * A set of 32-bit word hashes in a typed open-addressing table. A word hash is an unsigned 32-bit number, above the
 * small-integer range, so a `Set<number>` lookup boxes it: one heap number per word of every text, looked up once or
 * twice each. Slot value 0 marks an empty slot; the hash 0 itself is kept aside.
 */
class WordSet {
  private readonly table: Uint32Array;
  private readonly mask: number;
  private readonly hasZero: boolean;

  constructor(hashes: readonly number[]) {
    let size = 16;
    while (size < hashes.length * 2) size *= 2;
    this.table = new Uint32Array(size);
    this.mask = size - 1;
    this.hasZero = hashes.includes(0);
    for (const h of hashes) {
      if (h === 0) continue;
      let slot = Math.imul(h, 0x9e3779b1) >>> 0 & this.mask;
      while (this.table[slot] !== 0 && this.table[slot] !== h) slot = (slot + 1) & this.mask;
      this.table[slot] = h;
    }
  }

  has(h: number): boolean {
    if (h === 0) return this.hasZero;
    let slot = Math.imul(h, 0x9e3779b1) >>> 0 & this.mask;
    for (;;) {
      const v = this.table[slot];
      if (v === h) return true;
      if (v === 0) return false;
      slot = (slot + 1) & this.mask;
    }
  }
}

const TASK_VERBS = new WordSet(lexicon.taskVerbs.map(wordHash));
const POSSESSIVES = new WordSet(lexicon.possessives.map(wordHash));
const RESPONSE_NOUNS = new WordSet(lexicon.responseNouns.map(wordHash));
const LEX_TASK_VERB_INITIAL = combine(NS_LEXICON, fnv1a('task_verb_initial'));
const LEX_RESPONSE_REFERENCE = combine(NS_LEXICON, fnv1a('response_reference'));
const QUESTION_WORDS = new WordSet(lexicon.questionWords.map(wordHash));
const LEX_QUESTION_INITIAL = combine(NS_LEXICON, fnv1a('question_initial'));
/** Words longer than this are opaque tokens (hashes, base64, keys): one shape feature instead of noise. */
const MAX_WORD = 32;

const ZERO = 48;

function isWordCode(c: number): boolean {
  if (c < 0x80) return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95;
  if (c < 0xc0) return false;
  if (c >= 0x2000 && c <= 0x2bff) return false; // punctuation, symbols, arrows, box drawing
  if (c >= 0x3000 && c <= 0x303f) return false; // CJK punctuation
  if (c >= 0xd800 && c <= 0xdfff) return false; // surrogates (emoji): not letters
  if (c >= 0xfe30 && c <= 0xfe4f) return false;
  if (c >= 0xff00 && c <= 0xff0f) return false;
  return true;
}

function isSentenceEnd(c: number): boolean {
  return c === 46 || c === 33 || c === 63 || c === 10 || c === 58 || c === 0x3002 || c === 0xff01 || c === 0xff1f;
}

let scratch = new Uint16Array(4096);

/** `lower` must already be lower-cased. `kindSalt` selects the kind-conjoined copy of word features. */
export function textFeatures(lower: string, kindSalt: number, sink: FeatureSink): void {
  const n = lower.length;
  if (scratch.length < n + 1) scratch = new Uint16Array(n * 2 + 1);
  // Pass 1: normalised code stream for character n-grams (whitespace runs collapsed, digits folded).
  let m = 0;
  let lastSpace = true;
  for (let i = 0; i < n; i++) {
    let c = lower.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === 0xa0 || c === 12 || c === 11) {
      if (lastSpace) continue;
      c = 32;
      lastSpace = true;
    } else {
      lastSpace = false;
      if (c >= 48 && c <= 57) c = ZERO;
    }
    scratch[m++] = c;
  }
  for (let i = 0; i + 3 <= m; i++) {
    let h = fnvStep(fnvStep(fnvStep(NS_CHAR, scratch[i]), scratch[i + 1]), scratch[i + 2]);
    sink.push(mix(h));
    if (i + 4 > m) break;
    h = fnvStep(h, scratch[i + 3]);
    sink.push(mix(h));
    if (i + 5 > m) continue;
    h = fnvStep(h, scratch[i + 4]);
    sink.push(mix(h));
  }
  // Pass 2: words over the original lower-cased text (sentence boundaries need the newlines).
  let prev = 0;
  let atStart = true;
  let i = 0;
  while (i < n) {
    const c = lower.charCodeAt(i);
    if (!isWordCode(c)) {
      if (isSentenceEnd(c)) {
        atStart = true;
        prev = 0;
      }
      i++;
      continue;
    }
    let h = FNV_SEED;
    const start = i;
    while (i < n) {
      const w = lower.charCodeAt(i);
      if (!isWordCode(w)) break;
      h = fnvStep(h, w >= 48 && w <= 57 ? ZERO : w);
      i++;
    }
    const word = i - start > MAX_WORD ? NS_LONG : h >>> 0;
    emitTwice(combine(NS_WORD, word), kindSalt, sink);
    if (prev !== 0) emitTwice(combine(NS_BIGRAM ^ prev, word), kindSalt, sink);
    if (atStart) {
      emitTwice(combine(NS_INITIAL, word), kindSalt, sink);
      if (TASK_VERBS.has(word)) emitTwice(LEX_TASK_VERB_INITIAL, kindSalt, sink);
      else if (QUESTION_WORDS.has(word)) emitTwice(LEX_QUESTION_INITIAL, kindSalt, sink);
    }
    if (RESPONSE_NOUNS.has(word) && POSSESSIVES.has(prev)) emitTwice(LEX_RESPONSE_REFERENCE, kindSalt, sink);
    prev = word;
    atStart = false;
  }
}

function emitTwice(hash: number, kindSalt: number, sink: FeatureSink): void {
  sink.push(hash);
  sink.push(mix(hash ^ kindSalt));
}
