import config from '../../../config/mcp-tool-definitions.json' with { type: 'json' };
import { isBidiControl, isControl, isInvisibleFormat, isJoiner, isVariationSelector } from '../topology/chars.js';

/**
 * Text a person reviewing a tool list does not see but the model reads: invisible format characters, bidi controls
 * (Trojan Source), Unicode tag characters (ASCII smuggled in U+E0000–E007F), runs of variation selectors, terminal
 * control sequences, long whitespace padding that pushes text off screen, and base64 blobs that decode to prose.
 * Returns a short reason per kind found (metadata only), empty when the text is clean.
 */
const { minWhitespaceRun, minBlankLines, minBase64Chars, minBase64PrintableRatio, minBase64LetterSpaceRatio } = config.hiddenText;

const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
const WHITESPACE_RUN = new RegExp(`[\\t \\u00a0\\u2000-\\u200a\\u3000]{${minWhitespaceRun},}\\S`, 'u');
const BLANK_LINES = new RegExp(`(?:\\r?\\n[\\t \\u00a0\\u3000]*){${minBlankLines + 1},}\\S`, 'u');
const BASE64 = new RegExp(`[A-Za-z0-9+/_-]{${minBase64Chars},}={0,2}`, 'g');

export function hiddenTextReasons(text: string): string[] {
  const reasons = new Set<string>();
  let selectorRun = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0xdb40 && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      // U+E0000–E007F tags (low surrogates DC00–DC7F); U+E0100–E01EF variation selectors supplement.
      if (low >= 0xdc00 && low <= 0xdc7f && !isEmojiFlagTag(text, i)) reasons.add('unicode tag characters');
      else if (low >= 0xdd00 && low <= 0xddef) selectorRun++;
      i++;
      continue;
    }
    if (isVariationSelector(c)) selectorRun++;
    else selectorRun = 0;
    if (selectorRun >= 2) reasons.add('run of variation selectors');
    if (isBidiControl(c)) reasons.add('bidi control characters');
    else if (isInvisibleFormat(c)) reasons.add('invisible format characters');
    else if (isJoiner(c) && !betweenPictographs(text, i)) reasons.add('zero-width joiners outside emoji');
    else if (isControl(c)) reasons.add(c === 0x1b ? 'terminal escape sequences' : 'control characters');
  }
  if (WHITESPACE_RUN.test(text)) reasons.add('long whitespace padding before more text');
  if (BLANK_LINES.test(text)) reasons.add('many blank lines before more text');
  if (hasProseBase64(text)) reasons.add('base64 blob that decodes to text');
  return [...reasons];
}

/** Emoji flag sequences (🏴 + tags + cancel tag) are the one legitimate use of tag characters. */
function isEmojiFlagTag(text: string, i: number): boolean {
  const start = text.lastIndexOf('\u{1F3F4}', i);
  return start >= 0 && /^(?:\udb40[\udc20-\udc7e])*$/u.test(text.slice(start + 2, i));
}

function betweenPictographs(text: string, i: number): boolean {
  const before = text.slice(Math.max(0, i - 2), i);
  const after = text.slice(i + 1, i + 3);
  return PICTOGRAPHIC.test(before) || PICTOGRAPHIC.test(after);
}

function hasProseBase64(text: string): boolean {
  for (const match of text.matchAll(BASE64)) {
    const blob = match[0];
    // Identifiers and paths are long runs too: a blob must mix cases and digits or symbols like real base64.
    if (!/[a-z]/.test(blob) || !/[A-Z]/.test(blob)) continue;
    const decoded = Buffer.from(blob.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('latin1');
    if (decoded.length === 0) continue;
    let printable = 0;
    let letterSpace = 0;
    for (let k = 0; k < decoded.length; k++) {
      const c = decoded.charCodeAt(k);
      if ((c >= 0x20 && c < 0x7f) || c === 0x0a || c === 0x09) printable++;
      if ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x20) letterSpace++;
    }
    if (printable / decoded.length >= minBase64PrintableRatio && letterSpace / decoded.length >= minBase64LetterSpaceRatio) return true;
  }
  return false;
}
