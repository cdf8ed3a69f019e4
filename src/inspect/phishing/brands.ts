import catalogue from '../../../config/brands.json' with { type: 'json' };
import phishing from '../../../config/phishing.json' with { type: 'json' };
import { COMMON_WORDS } from '../decode/language.js';

/**
 * The brand catalogue and the ways a host token can name a brand: exactly, with a number
 * glued on (`paypal2`), in leet (`paypa1`, `amaz0n`), embedded in a longer token
 * (`jpmetamask`), or with a typo (`micorsoft`, `chaes`, `smmbc`).
 */

export interface Brand {
  name: string;
  labels: string[];
  domains: string[];
  generic?: string[];
}

export type BrandMatchKind = 'exact' | 'numbered' | 'leet' | 'embedded' | 'typo';

export interface BrandMatch {
  brand: Brand;
  label: string;
  kind: BrandMatchKind;
  /** What is left of the token once the brand (and glued digits) are removed. */
  remainder: string;
  /** Whether the label is a dictionary word or a 2–3 letter acronym. */
  generic: boolean;
}

const BRANDS: Brand[] = catalogue.brands;
const BY_LABEL = new Map<string, Brand>();
const LEGIT = new Set<string>();
for (const brand of BRANDS) {
  for (const label of brand.labels) BY_LABEL.set(label.replace(/-/g, ''), brand);
  for (const domain of brand.domains) LEGIT.add(domain.toLowerCase());
}
const LABELS = [...BY_LABEL.keys()];
/** Labels long and distinctive enough to be recognised inside a longer token. */
const GENERIC = new Set(BRANDS.flatMap((b) => (b.generic ?? []).map((g) => g.replace(/-/g, ''))));
const EMBEDDABLE = LABELS.filter((l) => !GENERIC.has(l) && (l.length >= 5 || (l.length === 4 && !COMMON_WORDS.has(l)))).sort(
  (a, b) => b.length - a.length,
);

const SHORT_LABELS = LABELS.filter((l) => l.length >= 2 && l.length <= 4 && /^[a-z]+$/.test(l));
const GENERIC_EMBEDDABLE = LABELS.filter((l) => !EMBEDDABLE.includes(l) && l.length >= 3).sort((a, b) => b.length - a.length);
const LURE_WORDS = new Set([...phishing.hostLureWords, ...phishing.hostFillerWords]);

/** Bit set of the letters a word uses: two words one typo apart differ in at most 2 letters' presence per edit. */
function letterMask(word: string): number {
  let mask = 0;
  for (let i = 0; i < word.length; i++) mask |= 1 << ((word.charCodeAt(i) - 0x61) & 31);
  return mask;
}
/** letterMask of LABELS[k], by position: the typo scan below reads it for every label. */
const LABEL_MASKS = Int32Array.from(LABELS, letterMask);

function bitCount(n: number): number {
  let count = 0;
  for (let v = n; v !== 0; v &= v - 1) count++;
  return count;
}
const LEET: Record<string, string> = { '0': 'o', '1': 'l', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b', '9': 'g' };

function isGeneric(label: string): boolean {
  return GENERIC.has(label);
}

/** Whether the host belongs to a brand's published domains (the host or one of its parents). */
export function isBrandDomain(hostname: string): boolean {
  let host = hostname.toLowerCase();
  for (;;) {
    if (LEGIT.has(host)) return true;
    const dot = host.indexOf('.');
    if (dot < 0) return false;
    host = host.slice(dot + 1);
  }
}

export function brandByLabel(label: string): Brand | undefined {
  return BY_LABEL.get(label);
}

export function isGenericLabel(label: string): boolean {
  return GENERIC.has(label);
}

/** Optimal string alignment distance, giving up (returning max + 1) beyond `max`. Three rolling rows. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2 = new Int32Array(b.length + 1);
  let prev = new Int32Array(b.length + 1);
  let row = new Int32Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let d = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) {
        d = Math.min(d, prev2[j - 2] + 1);
      }
      row[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return max + 1;
    [prev2, prev, row] = [prev, row, prev2];
  }
  return prev[b.length];
}

/**
 * A typo the brand's length can carry: one edit from 5 letters, two from 9; for 3–4
 * letters only a doubled letter (`smmbc`, `jcbb`) or, from 4, a swap of neighbours.
 */
function isTypoOf(token: string, label: string): boolean {
  if (token === label || COMMON_WORDS.has(token)) return false;
  if (label.length >= 5) return editDistance(token, label, label.length >= 9 ? 2 : 1) <= (label.length >= 9 ? 2 : 1);
  if (label.length < 3 || token.length !== label.length + 1 && token.length !== label.length) return false;
  if (token.length === label.length + 1) {
    for (let i = 1; i < token.length; i++) {
      if (token[i] === token[i - 1] && token.slice(0, i) + token.slice(i + 1) === label) return true;
    }
    return false;
  }
  return label.length >= 4 && editDistance(token, label, 1) === 1 && [...token].sort().join('') === [...label].sort().join('');
}

function match(brand: Brand, label: string, kind: BrandMatchKind, remainder: string): BrandMatch {
  return { brand, label, kind, remainder, generic: isGeneric(label) };
}

/**
 * The last tokens read and their matches: a link's host tokens are read by the named rules (score.ts) and again by the
 * model's features (features.ts). Matches are never modified by their readers, so the same one can be handed out.
 */
const MEMO_SIZE = 8;
const memoToken: Array<string | undefined> = new Array(MEMO_SIZE).fill(undefined);
const memoMatch: Array<BrandMatch | undefined> = new Array(MEMO_SIZE).fill(undefined);
let memoNext = 0;

/** The strongest way a single host token (lower case, no dots or hyphens) names a brand. */
export function matchToken(token: string): BrandMatch | undefined {
  for (let i = 0; i < MEMO_SIZE; i++) if (memoToken[i] === token) return memoMatch[i];
  const m = readToken(token);
  memoToken[memoNext] = token;
  memoMatch[memoNext] = m;
  memoNext = (memoNext + 1) % MEMO_SIZE;
  return m;
}

function readToken(token: string): BrandMatch | undefined {
  const exact = BY_LABEL.get(token);
  if (exact) return match(exact, token, 'exact', '');
  const stem = token.replace(/\d+$/, '');
  if (stem !== token) {
    // Labels may end in digits themselves (`office365`), so try every label as a prefix.
    for (const label of LABELS) {
      if (token.length > label.length && token.startsWith(label) && /^\d+$/.test(token.slice(label.length))) {
        return match(BY_LABEL.get(label) as Brand, label, 'numbered', token.slice(label.length));
      }
    }
    // A short brand behind a short prefix and before a number (`jpau34`, `viewnta83`).
    for (const label of SHORT_LABELS) {
      if (stem.endsWith(label) && stem.length - label.length <= 4 && stem.length > label.length) {
        return match(BY_LABEL.get(label) as Brand, label, 'embedded', stem.slice(0, -label.length) + token.slice(stem.length));
      }
    }
  }
  if (/\d/.test(token) && /[a-z]/.test(token)) {
    const deleet = token.replace(/[0-9]/g, (d) => LEET[d] ?? d);
    const leet = BY_LABEL.get(deleet);
    if (leet) return match(leet, deleet, 'leet', '');
  }
  if (token.length >= 6 && !COMMON_WORDS.has(stem)) {
    for (const label of EMBEDDABLE) {
      const at = stem.indexOf(label);
      if (at < 0 || label.length === stem.length) continue;
      const brand = BY_LABEL.get(label) as Brand;
      return match(brand, label, 'embedded', stem.slice(0, at) + stem.slice(at + label.length) + token.slice(stem.length));
    }
    // Dictionary-word and short brands (`discord`, `jcb`) only count glued to a lure word (`discordonline`, `jcbmember`).
    for (const label of GENERIC_EMBEDDABLE) {
      const at = stem.indexOf(label);
      if (at < 0 || label.length === stem.length) continue;
      const rest = stem.slice(0, at) + stem.slice(at + label.length);
      if (LURE_WORDS.has(rest)) return match(BY_LABEL.get(label) as Brand, label, 'embedded', rest);
    }
  }
  const letters = /\d/.test(token) ? stem.replace(/[0-9]/g, (d) => LEET[d] ?? d) : token;
  if (letters.length >= 3 && /^[a-z]+$/.test(letters)) {
    const mask = letterMask(letters);
    const first = letters[0];
    const last = letters[letters.length - 1];
    for (let k = 0; k < LABELS.length; k++) {
      const label = LABELS[k];
      if (Math.abs(label.length - letters.length) > 2 || bitCount(mask ^ LABEL_MASKS[k]) > 4) continue;
      // One edit leaves the first or the last letter in place; two edits need a 9+ letter label.
      if (label.length < 9 && first !== label[0] && last !== label[label.length - 1]) continue;
      if (isTypoOf(letters, label)) {
        return match(BY_LABEL.get(label) as Brand, label, 'typo', token.slice(stem.length));
      }
    }
  }
  return undefined;
}
