import type { Span } from '../types.js';

/**
 * Invisible-character handling: strip format characters for a clean reading, and decode
 * the two known ways of hiding whole messages in invisible code points:
 * - Unicode tag characters U+E0020–E007E mirror ASCII ("ASCII smuggling", J. Rehberger 2024);
 * - variation selectors VS1–VS256 carry one byte each after a visible character
 *   (P. Butler, "Smuggling arbitrary data through an emoji", 2025).
 */

/** Default-ignorable characters removed from the stripped view (ZW*, bidi, tags, selectors, fillers). */
const INVISIBLE =
  /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF9-\uFFFB\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}]+/gu;

const SMUGGLING_ONLY = /^[\uFE00-\uFE0F\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}]+$/u;

function isAsciiAlnum(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

export interface Stripped {
  text: string;
  /** Removals that touched ASCII letters/digits (word splitting), as opposed to emoji joiners or RTL marks. */
  meaningful: number;
  /** Original offsets of removed runs, to map positions in `text` back to the content. */
  removed: Span[];
}

export function stripInvisible(content: string): Stripped {
  let meaningful = 0;
  const removed: Span[] = [];
  INVISIBLE.lastIndex = 0;
  const text = content.replace(INVISIBLE, (run: string, offset: number) => {
    removed.push({ start: offset, end: offset + run.length });
    // Tag and selector runs are decoded as hidden text; here only word-splitting characters count.
    if (!SMUGGLING_ONLY.test(run) && (isAsciiAlnum(content.charCodeAt(offset - 1)) || isAsciiAlnum(content.charCodeAt(offset + run.length)))) {
      meaningful++;
    }
    return '';
  });
  return { text, meaningful, removed };
}

/** Maps an offset in the stripped text back to the original content. */
export function unstripOffset(removed: readonly Span[], offset: number): number {
  let shift = 0;
  for (const r of removed) {
    if (r.start - shift > offset) break;
    shift += r.end - r.start;
  }
  return offset + shift;
}

export interface HiddenText {
  kind: 'unicode_tags' | 'variation_selectors';
  text: string;
  span: Span;
}

const TAG_RUN = /[\u{E0020}-\u{E007E}]{2,4096}/gu;
const SELECTOR_RUN = /[\uFE00-\uFE0F\u{E0100}-\u{E01EF}]{4,8192}/gu;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

export function decodeHidden(content: string, maxRuns: number): HiddenText[] {
  const out: HiddenText[] = [];
  TAG_RUN.lastIndex = 0;
  for (let m = TAG_RUN.exec(content); m !== null && out.length < maxRuns; m = TAG_RUN.exec(content)) {
    // A subdivision flag (U+1F3F4 + tags + cancel tag) is an emoji, not a message.
    if (content.codePointAt(m.index - 2) === 0x1f3f4) continue;
    let text = '';
    for (const ch of m[0]) text += String.fromCharCode((ch.codePointAt(0) ?? 0xe0020) - 0xe0000);
    out.push({ kind: 'unicode_tags', text, span: { start: m.index, end: m.index + m[0].length } });
  }
  SELECTOR_RUN.lastIndex = 0;
  for (let m = SELECTOR_RUN.exec(content); m !== null && out.length < maxRuns; m = SELECTOR_RUN.exec(content)) {
    const bytes: number[] = [];
    for (const ch of m[0]) {
      const cp = ch.codePointAt(0) ?? 0;
      bytes.push(cp <= 0xfe0f ? cp - 0xfe00 : cp - 0xe0100 + 16);
    }
    try {
      const text = UTF8.decode(Uint8Array.from(bytes));
      out.push({ kind: 'variation_selectors', text, span: { start: m.index, end: m.index + m[0].length } });
    } catch {
      // Not UTF-8: not a smuggled message.
    }
  }
  return out;
}
