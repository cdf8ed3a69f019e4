import { confusablesMap } from 'confusables';

/**
 * NFKC folding (fullwidth, mathematical alphanumerics, ligatures) and a targeted confusable
 * skeleton in the spirit of Unicode TR39 §4: look-alike letters from other scripts are mapped
 * to the Latin letter they imitate, but only inside words that are already Latin (or in a
 * text that is overwhelmingly Latin), so Russian or Greek prose is never rewritten.
 * The `confusables` package maps to English letters only; Latin letters with diacritics
 * are left alone (é, ü, ı are real letters in real languages).
 */

const NON_ASCII = /[^\x00-\x7f]/;
/** Letters, marks and digits of any script, approximately: what is not ASCII punctuation or a symbol block. */
function isWordUnit(c: number): boolean {
  if (c < 0x80) return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  if (c < 0xc0 || c === 0xd7 || c === 0xf7) return false;
  return !((c >= 0x2000 && c <= 0x2bff) || (c >= 0x3000 && c <= 0x303f) || (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff0f));
}

function asciiLetters(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i) | 0x20;
    if (c >= 0x61 && c <= 0x7a) n++;
  }
  return n;
}

export interface Folded {
  text: string;
  /** ASCII letters gained by NFKC (fullwidth/math letters folded to plain ones). */
  nfkcGain: number;
  /** Look-alike letters replaced by the skeleton. */
  skeletonSwaps: number;
}

function isLatinExtended(c: number): boolean {
  return (c >= 0xc0 && c <= 0x24f) || (c >= 0x1e00 && c <= 0x1eff);
}

/** BMP code units that have a Latin look-alike outside the Latin blocks: a cheap gate for the skeleton pass. */
const HAS_TWIN = new Uint8Array(0x10000);
for (const [ch, base] of confusablesMap) {
  const c = ch.charCodeAt(0);
  if (ch.length === 1 && c >= 0x80 && !isLatinExtended(c) && /^[A-Za-z]$/.test(base)) HAS_TWIN[c] = 1;
}

/** The Latin letter a non-Latin look-alike imitates, or undefined. */
function lookalikeOf(ch: string): string | undefined {
  const c = ch.codePointAt(0) ?? 0;
  if (c < 0x80 || isLatinExtended(c)) return undefined;
  const base = confusablesMap.get(ch);
  return base !== undefined && base.length === 1 && /[A-Za-z]/.test(base) ? base : undefined;
}

/**
 * Letters that are pixel-identical to a Latin letter in common fonts (TR39 confusables for
 * the Latin script, Cyrillic and Greek rows): the only letters a whole foreign word may be
 * rewritten from. The `confusables` package is broader (д→A, и→N), fine inside a Latin word
 * but wrong for real Russian words.
 */
const STRICT_TWINS = new Set('аеорсухіјѕһԁԛԝӏүАВЕКМНОРСТУХІЈЅοαινυΑΒΕΖΗΙΚΜΝΟΡΤΥΧ');

function skeletonWord(word: string, force: boolean): { text: string; swaps: number } {
  let hasAscii = false;
  for (let i = 0; i < word.length && !hasAscii; i++) {
    const c = word.charCodeAt(i);
    hasAscii = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  }
  if (!hasAscii && !force) return { text: word, swaps: 0 };
  let out = '';
  let swaps = 0;
  for (const ch of word) {
    const base = lookalikeOf(ch);
    if (base !== undefined) {
      out += base;
      swaps++;
    } else out += ch;
  }
  // A forced (all-foreign) word is only rewritten when every letter is a strict twin.
  if (!hasAscii && [...word].some((ch) => !STRICT_TWINS.has(ch))) return { text: word, swaps: 0 };
  return { text: out, swaps };
}

export function fold(text: string): Folded {
  if (!NON_ASCII.test(text)) return { text, nfkcGain: 0, skeletonSwaps: 0 };
  const nfkc = text.normalize('NFKC');
  let ascii = 0;
  let foreign = 0;
  let twins = 0;
  // A look-alike touching an ASCII letter (`pаypal`): the case that matters outside Latin-only text.
  let twinsInLatin = 0;
  let prevLetter = false;
  let prevTwin = false;
  for (let i = 0; i < nfkc.length; i++) {
    const c = nfkc.charCodeAt(i);
    if (c >= 0x80) {
      foreign++;
      const twin = HAS_TWIN[c] === 1;
      if (twin) {
        twins++;
        if (prevLetter) twinsInLatin++;
      }
      prevTwin = twin;
      prevLetter = false;
      continue;
    }
    const letter = (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;
    if (letter) {
      ascii++;
      if (prevTwin) twinsInLatin++;
    }
    prevLetter = letter;
    prevTwin = false;
  }
  const nfkcGain = nfkc === text ? 0 : ascii - asciiLetters(text);
  // Whole foreign words are mapped only in a text whose letters are ≥ 80% ASCII Latin.
  const force = ascii > 0 && ascii / (ascii + foreign) >= 0.8;
  if (twins === 0 || (!force && twinsInLatin === 0)) return { text: nfkc, nfkcGain, skeletonSwaps: 0 };
  // Only the words around look-alike letters are examined, not every word of the text.
  let skeletonSwaps = 0;
  let skeleton = '';
  let cursor = 0;
  for (let i = 0; i < nfkc.length; i++) {
    const c = nfkc.charCodeAt(i);
    if (c < 0x80 || HAS_TWIN[c] === 0 || i < cursor) continue;
    let start = i;
    let end = i + 1;
    while (start > cursor && isWordUnit(nfkc.charCodeAt(start - 1))) start--;
    while (end < nfkc.length && end - start < 64 && isWordUnit(nfkc.charCodeAt(end))) end++;
    const r = skeletonWord(nfkc.slice(start, end), force);
    skeletonSwaps += r.swaps;
    skeleton += nfkc.slice(cursor, start) + r.text;
    cursor = end;
    i = end - 1;
  }
  skeleton += nfkc.slice(cursor);
  return { text: skeleton, nfkcGain, skeletonSwaps };
}
