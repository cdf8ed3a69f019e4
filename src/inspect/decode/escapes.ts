import { utf8OrNull } from './text-like.js';

/**
 * Inline escapes decoded in place: percent-encoding (RFC 3986 §2.1), HTML character
 * references (numeric and the five XML entities plus &nbsp;), `\uXXXX`, `\u{X…}` and
 * `\xXX` escapes. Percent and `\x` runs are read as UTF-8 bytes (Latin-1 when not UTF-8).
 */

const ESCAPE =
  /(?:%[0-9a-fA-F]{2}){1,4096}|(?:\\x[0-9a-fA-F]{2}){1,4096}|\\u\{[0-9a-fA-F]{1,6}\}|\\u[0-9a-fA-F]{4}|&#[0-9]{1,7};|&#[xX][0-9a-fA-F]{1,6};|&(?:lt|gt|amp|quot|apos|nbsp);/g;
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'", nbsp: '\u00a0' };

export interface Unescaped {
  text: string;
  /** ASCII letters and digits that were hidden behind escapes (an attacker's reason to escape). */
  asciiAlnum: number;
  /** All letters and digits produced, any script. */
  alnum: number;
}

function fromCodePoint(cp: number, fallback: string): string {
  return cp <= 0x10ffff ? String.fromCodePoint(cp) : fallback;
}

function bytesOf(run: string, prefixLength: number): string {
  const bytes = new Uint8Array(run.length / (prefixLength + 2));
  for (let i = 0, j = 0; i < run.length; i += prefixLength + 2, j++) {
    bytes[j] = parseInt(run.slice(i + prefixLength, i + prefixLength + 2), 16);
  }
  return utf8OrNull(bytes) ?? String.fromCharCode(...bytes.subarray(0, 4096));
}

function decodeOne(m: string): string {
  if (m[0] === '%') return bytesOf(m, 1);
  if (m.startsWith('\\x')) return bytesOf(m, 2);
  if (m.startsWith('\\u{')) return fromCodePoint(parseInt(m.slice(3, -1), 16), m);
  if (m.startsWith('\\u')) return String.fromCharCode(parseInt(m.slice(2), 16));
  if (m.startsWith('&#x') || m.startsWith('&#X')) return fromCodePoint(parseInt(m.slice(3, -1), 16), m);
  if (m.startsWith('&#')) return fromCodePoint(parseInt(m.slice(2, -1), 10), m);
  return NAMED[m.slice(1, -1)] ?? m;
}

const ASCII_ALNUM = /[A-Za-z0-9]/g;
const ANY_ALNUM = /[\p{L}\p{N}]/gu;

export function unescapeInline(text: string): Unescaped {
  let asciiAlnum = 0;
  let alnum = 0;
  ESCAPE.lastIndex = 0;
  if (!ESCAPE.test(text)) return { text, asciiAlnum, alnum };
  ESCAPE.lastIndex = 0;
  const out = text.replace(ESCAPE, (m) => {
    const d = decodeOne(m);
    asciiAlnum += d.match(ASCII_ALNUM)?.length ?? 0;
    alnum += d.match(ANY_ALNUM)?.length ?? 0;
    return d;
  });
  return { text: out, asciiAlnum, alnum };
}
