import vocabulary from '../../../config/evolution-vocabulary.json' with { type: 'json' };
import { scanText } from '../secrets/scan.js';
import { compileRegex } from './compile.js';
import { JOIN, regexReadings, WILD } from './regex-reading.js';

/**
 * Customer text never becomes a rule. An evolved rule may contain only common attack vocabulary
 * (config/evolution-vocabulary.json, built by scripts/build-evolution-vocabulary.ts from words found in attack texts
 * of at least two sources). Before any analyser (offline or language model) sees an attack, everything else in it is
 * masked: URLs, e-mail addresses, host names, IP addresses, numbers, identifiers and every word outside the
 * vocabulary become `[REDACTED]`. The validation gate checks every candidate again (`vocabularyRefusal`).
 */

const WORDS: ReadonlySet<string> = new Set(vocabulary.words);
export const MASK = '[REDACTED]';

/** A vocabulary word, or a single letter (`a`, `I`, the `s` of `-s`: too short to carry anybody's data). */
export function isVocabulary(word: string): boolean {
  const w = word.normalize('NFKC').toLowerCase();
  return WORDS.has(w) || /^\p{L}$/u.test(w);
}

// Alternatives in priority order: a placeholder stays; URLs, e-mail addresses, hosts/IPs and anything dotted or with
// `@` go whole (their parts can be vocabulary words: evil@attacker.example); then single words.
const TOKEN = new RegExp(
  [
    String.raw`\[REDACTED(?::[^\]\s]{1,64})?\]`,
    String.raw`[\p{L}][\p{L}\p{N}+.-]{0,31}:\/\/[^\s<>"'\]\)]*`,
    String.raw`[\p{L}\p{N}._%+-]*@[\p{L}\p{N}._-]+`,
    String.raw`[\p{L}\p{N}_-]+(?:[.:][\p{L}\p{N}_-]+)+`,
    String.raw`[\p{L}\p{N}_]+`,
  ].join('|'),
  'gu',
);

/** The attack as an analyser may see it: vocabulary words, punctuation and spacing; every other token masked. */
export function maskForAnalysis(text: string): string {
  const masked = text.replace(TOKEN, (token) => {
    if (token.startsWith('[REDACTED')) return token;
    return /^\p{L}+$/u.test(token) && isVocabulary(token) ? token : MASK;
  });
  // Adjacent masks say nothing more than one: `[REDACTED]-[REDACTED]` → `[REDACTED]`.
  return masked.replace(/\[REDACTED\](?:[^\p{L}\p{N}\s[]{0,3}\[REDACTED\])+/gu, MASK);
}

/**
 * Why a candidate rule would carry customer text, or undefined: a word outside the vocabulary (a number, an
 * identifier, a canary, a name), an e-mail address, URL or host shape, or anything the secret/PII scanner flags.
 * For a regex, the words are those of every text it can match (src/inspect/rules/regex-reading.ts: escapes decoded,
 * small classes and alternatives expanded, wildcards joining letters into words), not its surface: `\x63\x6f…`,
 * `[c][o]…` and `c.n.o.o` spell words too. A regex too tangled to read within the bound is refused.
 */
export function vocabularyRefusal(kind: 'regex' | 'phrase' | 'exemplar', pattern: string): string | undefined {
  if (kind !== 'regex') return textRefusal(pattern, pattern);
  const readings = regexReadings(pattern);
  if (!readings) {
    // What RE2 refuses never becomes a rule: the gate names that refusal (invalid_regex). Anything else unreadable is refused here.
    if (!compiles(pattern)) return undefined;
    return 'rare_token: the regex cannot be read within bounds (too many alternatives)';
  }
  if (scanText(pattern).length > 0) return 'customer_data: the secret/PII scanner flags the pattern';
  if (/[\p{L}\p{N}](?:\.|\\\.)[\p{L}]{2,}/u.test(pattern)) return 'customer_data: e-mail, URL or host shape';
  for (const reading of readings) {
    const refusal = textRefusal(reading, reading);
    if (refusal) return refusal;
  }
  return undefined;
}

const RARE = 'rare_token: a word outside the common attack vocabulary';
/** Letters spelled one at a time with punctuation between them (`c.o.n.t.o.s.o`, `c-o-n`): read as the word they spell. */
const SPELLED = /(?<![\p{L}\p{N}])\p{L}(?:[^\s\p{L}\p{N}\uE000\uE001]\p{L}){2,}(?![\p{L}\p{N}])/gu;

function textRefusal(literal: string, shaped: string): string | undefined {
  if (scanText(literal).length > 0) return 'customer_data: the secret/PII scanner flags the pattern';
  if (/@|:\/\/|www\b/i.test(literal) || /[\p{L}\p{N}]\.[\p{L}]{2,}/u.test(shaped)) return 'customer_data: e-mail, URL or host shape';
  const text = literal.normalize('NFKC').toLowerCase();
  for (const m of text.matchAll(SPELLED)) if (!isVocabulary(m[0].replace(/[^\p{L}]/gu, ''))) return RARE;
  for (const m of text.matchAll(/[\p{L}\p{N}\uE000\uE001]+/gu)) {
    if (!wordAccepted(m[0])) return RARE;
  }
  return undefined;
}

/**
 * One word of a reading. Without gaps: a vocabulary word or a single letter. With gaps (regex-reading.ts), the word is
 * a template of what the regex can match, and only its fixed pieces are readable: pieces joined by a gap that may be
 * empty (JOIN: `ignore\s*all`) must each be vocabulary words of two letters or more, pieces joined by something that
 * can match letters (WILD: `ignore.{0,20}instructions`) of three or more. Single letters joined that way spell
 * words nobody can read (`c.n.o.o` matches "contoso", `c\W?o\W?n…` matches it outright): refused.
 */
function wordAccepted(word: string): boolean {
  if (!word.includes(WILD) && !word.includes(JOIN)) return /^\p{L}+$/u.test(word) && isVocabulary(word);
  const min = word.includes(WILD) ? 3 : 2;
  return word.split(/[\uE000\uE001]/u).every((piece) => piece === '' || (piece.length >= min && /^\p{L}+$/u.test(piece) && WORDS.has(piece)));
}

function compiles(pattern: string): boolean {
  try {
    compileRegex(pattern);
    return true;
  } catch {
    return false;
  }
}
