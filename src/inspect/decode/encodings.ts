import config from '../../../config/obfuscation.json' with { type: 'json' };
import type { Span } from '../types.js';
import { bytesToText } from './text-like.js';
import { DIGITS, LETTERS, asciiClass, classRuns } from './runs.js';

/**
 * Embedded block encodings: base64 / base64url (RFC 4648 §4–5), base32 (§6) and hex,
 * packed or as separated byte pairs. A candidate becomes a decoded segment only when the
 * bytes are text (see text-like.ts): git SHAs, sha256 digests, UUIDs, API keys and images
 * decode to binary and are dropped. Data URLs of binary media types are never decoded.
 */

export type BlockEncoding = 'base64' | 'base32' | 'hex';

export interface DecodedSegment {
  encoding: BlockEncoding;
  span: Span;
  text: string;
}

const enc = config.encodings;
const ALPHABET = asciiClass(`${LETTERS}${DIGITS}+/_-`);
const MIN_RUN = Math.min(enc.minBase64, enc.minBase32, enc.minHexBytes * 2);
const SPACED_HEX = /(?<![0-9A-Za-z])(?:[0-9a-fA-F]{2}[ :,]){7,4096}[0-9a-fA-F]{2}(?![0-9A-Za-z])/g;
const HEX = /^(?:0x)?((?:[0-9a-fA-F]{2})+)$/;
const BASE32 = /^[A-Z2-7]+=*$/;
const DATA_URL = /data:([a-z0-9.+-]{1,40}\/[a-z0-9.+-]{1,80})?(?:;[a-z0-9=.-]{1,40}){0,4};base64,$/i;
const SAMPLE_CHARS = 128;
const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function decodeBase32(s: string): Uint8Array {
  const clean = s.replace(/=+$/, '');
  const out = new Uint8Array(Math.floor((clean.length * 5) / 8));
  let bits = 0;
  let value = 0;
  let j = 0;
  for (let i = 0; i < clean.length; i++) {
    value = (value << 5) | B32.indexOf(clean[i]);
    bits += 5;
    if (bits >= 8) {
      out[j++] = (value >>> (bits - 8)) & 0xff;
      bits -= 8;
    }
  }
  return out;
}

/** Whether a run could be base64 of text: encoded text always mixes upper and lower case. */
function plausibleBase64(run: string): boolean {
  let upper = 0;
  let lower = 0;
  let standard = false;
  let urlSafe = false;
  for (let i = 0; i < run.length && i < 256; i++) {
    const c = run.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) upper++;
    else if (c >= 0x61 && c <= 0x7a) lower++;
    else if (c === 0x2b || c === 0x2f) standard = true;
    else if (c === 0x2d || c === 0x5f) urlSafe = true;
  }
  return upper >= 3 && lower >= 3 && !(standard && urlSafe);
}

function binaryDataUrl(text: string, start: number): boolean {
  const m = DATA_URL.exec(text.slice(Math.max(0, start - 160), start));
  if (!m) return false;
  const mime = (m[1] ?? '').toLowerCase();
  return mime === '' || enc.binaryDataUrlTypes.some((t) => mime.startsWith(t));
}

function decodeRun(run: string, encoding: BlockEncoding): string | null {
  // A long run is first judged on a short prefix so that megabytes of binary are never decoded.
  if (run.length > SAMPLE_CHARS * 2) {
    const head = run.slice(0, SAMPLE_CHARS);
    if (decodeRun(head, encoding) === null) return null;
  }
  if (encoding === 'hex') return bytesToText(Buffer.from(run, 'hex'));
  if (encoding === 'base32') return bytesToText(decodeBase32(run));
  return bytesToText(Buffer.from(run.replace(/=+$/, ''), 'base64'));
}

function classify(run: string): { encoding: BlockEncoding; payload: string } | null {
  const hex = HEX.exec(run);
  if (hex && hex[1].length >= enc.minHexBytes * 2) return { encoding: 'hex', payload: hex[1] };
  if (hex) return null;
  if (BASE32.test(run) && run.length >= enc.minBase32 && run.length % 8 === 0) return { encoding: 'base32', payload: run };
  if (run.length >= enc.minBase64 && plausibleBase64(run)) return { encoding: 'base64', payload: run };
  return null;
}

/** Charges the decoded text to the budget, cutting it where the budget ends. */
function spend(decoded: string, budget: { bytes: number }): string {
  const kept = decoded.length <= budget.bytes ? decoded : decoded.slice(0, Math.max(0, budget.bytes));
  budget.bytes -= decoded.length;
  return kept;
}

/**
 * Finds and decodes encoded segments in `text`. `budget.bytes` is decremented by each
 * decoded length and decoding stops when it runs out.
 */
export function decodeBlocks(text: string, maxCandidates: number, budget: { bytes: number }): DecodedSegment[] {
  const out: DecodedSegment[] = [];
  let candidates = 0;
  for (const run of classRuns(text, ALPHABET, MIN_RUN, maxCandidates * 4)) {
    if (candidates >= maxCandidates || budget.bytes <= 0) break;
    // Padding belongs to the run; the class leaves it out so that `a=b` pairs do not join.
    let end = run.end;
    while (end < text.length && end - run.end < 6 && text.charCodeAt(end) === 0x3d) end++;
    const kind = classify(text.slice(run.start, end));
    if (!kind) continue;
    candidates++;
    if (binaryDataUrl(text, run.start)) continue;
    const decoded = decodeRun(kind.payload, kind.encoding);
    if (decoded === null) continue;
    out.push({ encoding: kind.encoding, span: { start: run.start, end }, text: spend(decoded, budget) });
  }
  SPACED_HEX.lastIndex = 0;
  for (let m = SPACED_HEX.exec(text); m !== null && candidates < maxCandidates && budget.bytes > 0; m = SPACED_HEX.exec(text)) {
    candidates++;
    const decoded = decodeRun(m[0].replace(/[ :,]/g, ''), 'hex');
    if (decoded === null) continue;
    out.push({ encoding: 'hex', span: { start: m.index, end: m.index + m[0].length }, text: spend(decoded, budget) });
  }
  return out;
}
