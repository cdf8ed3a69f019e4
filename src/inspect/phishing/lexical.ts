import config from '../../../config/phishing.json' with { type: 'json' };
import { COMMON_WORDS } from '../decode/language.js';

/**
 * Lexical features of host names: lure words, risky TLDs, and whether a label looks
 * machine-generated. "Random" is judged by letter pairs that never occur in common
 * English words (bigram table built from the same word list the decoder uses) and by
 * interleaved letters and digits — the two marks of generated phishing hosts.
 */

export const HOST_LURE = new Set(config.hostLureWords);
export const HOST_FILLER = new Set(config.hostFillerWords);
export const PATH_LURE = new Set(config.pathLureWords);
export const GENERIC_SUBDOMAINS = new Set(config.genericSubdomains);
export const TLD_LABELS = new Set(config.commonTldLabels);
const RISKY: Record<string, number> = config.riskyTlds;
const RESTRICTED = config.restrictedSuffixes;

export function riskyTldWeight(tld: string): number {
  return RISKY[tld] ?? 0;
}

/** Suffixes whose registries verify the registrant (co.jp, .gov, ac.uk ...). */
export function isRestrictedSuffix(publicSuffix: string): boolean {
  return RESTRICTED.some((s) => publicSuffix === s || publicSuffix.endsWith(`.${s}`));
}

const RARE_BIGRAMS = new Set(config.rareBigrams.split(' '));
const VOWELS = new Set(['a', 'e', 'i', 'o', 'u', 'y']);
/** Japanese romanisation (kyushu, mizuho, sagawa): syllables, not random letters. */
const ROMAJI = /^(?:(?:[kgsztdnhbpmyrwfjv]|ky|gy|sh|ch|ts|ny|hy|by|py|my|ry)?[aiueo]|n)+$/;

/** Share of adjacent letter pairs that are rare in English prose. */
export function rareBigramShare(letters: string): number {
  if (letters.length < 2) return 0;
  let rare = 0;
  for (let i = 0; i + 1 < letters.length; i++) if (RARE_BIGRAMS.has(letters.slice(i, i + 2))) rare++;
  return rare / (letters.length - 1);
}

function longestConsonantRun(letters: string): number {
  let best = 0;
  let run = 0;
  for (const ch of letters) {
    run = VOWELS.has(ch) ? 0 : run + 1;
    if (run > best) best = run;
  }
  return best;
}

/** Letters interleaved with digits more than once (`h2984ye`, `x4u10`), a generated-name mark. */
export function isDigitMixed(token: string): boolean {
  let switches = 0;
  let prevDigit: boolean | undefined;
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    const digit = c >= 0x30 && c <= 0x39;
    if (prevDigit !== undefined && digit !== prevDigit) switches++;
    prevDigit = digit;
  }
  return switches >= 2 && /[a-z]{1}/.test(token);
}

/** Whether a host token (lower case) looks machine-generated rather than a word or a name. */
export function looksRandom(token: string): boolean {
  if (token.startsWith('xn--')) return false;
  if (isDigitMixed(token)) return true;
  const letters = token.replace(/[^a-z]/g, '');
  if (letters.length < 5 || COMMON_WORDS.has(letters) || ROMAJI.test(letters)) return false;
  const rare = rareBigramShare(letters);
  return rare >= 0.3 || (letters.length >= 8 && rare >= 0.2) || longestConsonantRun(letters) >= 5;
}

/** Path and query tokens (lower case) that name a credential or payment step. */
export function hasCredentialPath(pathAndQuery: string): boolean {
  const lower = pathAndQuery.toLowerCase();
  for (const token of lower.split(/[/?&=#_\-.]+/)) if (token && PATH_LURE.has(token)) return true;
  for (const segment of lower.split('/')) if (segment && PATH_LURE.has(segment)) return true;
  return false;
}

const PRESSURE = config.pressureWords.map((w) => w.toLowerCase());

/** Pressure language anywhere in the text: only ever a booster of an already suspicious URL. */
export function hasPressureLanguage(text: string): boolean {
  const lower = text.length > 20000 ? text.slice(0, 20000).toLowerCase() : text.toLowerCase();
  return PRESSURE.some((w) => lower.includes(w));
}
