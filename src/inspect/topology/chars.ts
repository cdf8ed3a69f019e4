import { confusablesMap } from 'confusables';

/**
 * Character classes used by the single-pass structure scan. Code points are
 * UTF-16 code units except where a supplementary-plane range is named.
 */

/** Bidi embeddings, overrides and isolates (Unicode TR9 §2.2–2.4): the Trojan Source set. */
export function isBidiControl(c: number): boolean {
  return (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

/** Left-to-right / right-to-left / Arabic letter marks: legitimate in RTL text, so counted apart. */
export function isBidiMark(c: number): boolean {
  return c === 0x200e || c === 0x200f || c === 0x061c;
}

/**
 * Default-ignorable format characters that render as nothing and have no business
 * inside ordinary Latin text. ZWJ/ZWNJ are judged by context by the caller (emoji and
 * Indic/Persian text use them legitimately).
 */
export function isInvisibleFormat(c: number): boolean {
  return (
    c === 0x200b ||
    (c >= 0x2060 && c <= 0x2064) ||
    (c >= 0x206a && c <= 0x206f) ||
    c === 0xfeff ||
    c === 0x00ad ||
    c === 0x034f ||
    c === 0x115f ||
    c === 0x1160 ||
    c === 0x3164 ||
    c === 0xffa0 ||
    c === 0x17b4 ||
    c === 0x17b5 ||
    (c >= 0x180b && c <= 0x180f) ||
    (c >= 0xfff9 && c <= 0xfffb)
  );
}

export function isJoiner(c: number): boolean {
  return c === 0x200c || c === 0x200d;
}

export function isVariationSelector(c: number): boolean {
  return c >= 0xfe00 && c <= 0xfe0f;
}

/** C0/C1 controls other than tab, line feed, carriage return and form feed. */
export function isControl(c: number): boolean {
  return (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c) || (c >= 0x7f && c <= 0x9f);
}

export function isAsciiAlnum(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

export const enum Script {
  None = 0,
  Latin = 1,
  Lookalike = 2,
  OtherLetter = 3,
}

/**
 * Cyrillic, Greek, Armenian and Cherokee letters that the confusables data maps to a
 * Latin letter (а→a, ο→o, ԁ→d …): the homoglyphs used inside Latin words.
 */
const LOOKALIKES = new Set<number>();
for (const [ch, base] of confusablesMap) {
  const c = ch.codePointAt(0) ?? 0;
  if (ch.length !== 1 || !/^[A-Za-z]$/.test(base)) continue;
  if ((c >= 0x0370 && c <= 0x058f) || (c >= 0x13a0 && c <= 0x13ff)) LOOKALIKES.add(c);
}

/** Script class of a word character; `None` ends a word. */
export function scriptOf(c: number): Script {
  if ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) return Script.Latin;
  if (c < 0xc0) return c >= 0x30 && c <= 0x39 ? Script.OtherLetter : Script.None;
  if (c <= 0x024f) return c === 0xd7 || c === 0xf7 ? Script.None : Script.Latin;
  if (c >= 0x1e00 && c <= 0x1eff) return Script.Latin;
  if ((c >= 0x0370 && c <= 0x058f) || (c >= 0x13a0 && c <= 0x13ff)) {
    return LOOKALIKES.has(c) ? Script.Lookalike : Script.OtherLetter;
  }
  return Script.None;
}
