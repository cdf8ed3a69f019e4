import config from '../../../config/obfuscation.json' with { type: 'json' };
import { isCommonWord } from './language.js';

/**
 * Leetspeak (`1gn0r3` → `ignore`, `p4$$w0rd` → `password`). A token mixing letters with
 * leet digits/symbols is rewritten only when the result is a common English word, so
 * identifiers (`utf8`, `k8s`, `sha256`, `x86`) and hashes stay as they are.
 */

const MAP: Record<string, string> = config.leet.map;
const ALT: Record<string, string> = config.leet.altMap;
/** A letter next to a leet character: the only places a leet token can be. */
const PAIR = /[A-Za-z][0-9@$]|[0-9@$][A-Za-z]/g;
const LETTERS_ONLY = /^[A-Za-z]+$/;
/** Longer than any common word: longer tokens (base64 fragments, hashes) are not read. */
const MAX_TOKEN = 16;
/** Tokens examined per text: leet prompts are short; ids and hashes in long logs are not leet. */
const MAX_CANDIDATES = 1024;

function isTokenChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x40 || c === 0x24;
}

function translate(token: string, alt: boolean): string {
  let out = '';
  for (const ch of token) out += (alt ? ALT[ch] : undefined) ?? MAP[ch] ?? ch;
  return out;
}

function readToken(token: string): string | null {
  let letters = 0;
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i) | 0x20;
    if (c >= 0x61 && c <= 0x7a) letters++;
  }
  if (letters < 2) return null;
  for (const alt of [false, true]) {
    const word = translate(token, alt);
    if (LETTERS_ONLY.test(word) && isCommonWord(word)) return word;
  }
  return null;
}

export interface LeetReading {
  text: string;
  replaced: number;
  longest: number;
}

export function decodeLeet(text: string): LeetReading {
  let replaced = 0;
  let longest = 0;
  let out = '';
  let cursor = 0;
  let candidates = 0;
  PAIR.lastIndex = 0;
  for (let m = PAIR.exec(text); m !== null && candidates < MAX_CANDIDATES; m = PAIR.exec(text)) {
    let start = m.index;
    let end = m.index + 2;
    while (start > cursor && isTokenChar(text.charCodeAt(start - 1))) start--;
    while (end < text.length && isTokenChar(text.charCodeAt(end))) end++;
    PAIR.lastIndex = end;
    const token = text.slice(start, end);
    if (start < cursor || token.length < 3 || token.length > MAX_TOKEN) continue;
    candidates++;
    const word = readToken(token);
    if (word === null) continue;
    out += text.slice(cursor, start) + word;
    cursor = end;
    replaced++;
    longest = Math.max(longest, word.length);
  }
  return { text: replaced > 0 ? out + text.slice(cursor) : text, replaced, longest };
}

/** Whether the leet reading is worth a view. */
export function leetIsMeaningful(r: LeetReading): boolean {
  return r.replaced >= config.leet.minTokens || (r.replaced >= 1 && r.longest >= config.leet.minLongWord);
}
