import { createHmac } from 'node:crypto';

/**
 * The values a flow is traced by: e-mail addresses, URLs and their hosts, IBANs, long digit runs (account and phone
 * numbers), amounts and identifiers, each normalised to a typed key (`email:a@b.c`, `amount:250000`). Only keys are
 * compared, and only their keyed hashes are kept: the state says "this value came from that kind of result", never
 * what the value was. Extraction is bounded (text read, keys per text).
 */

const MAX_TEXT = 64 * 1024;
export const MAX_KEYS_PER_TEXT = 512;

// The local part is taken whole (an atomic group: lookahead + back-reference), so a long run without `@` is read once.
const EMAIL = /(?=([a-z0-9._%+-]{1,64}))\1@[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){1,8}/gi;
const URL = /\b(?:https?|ftp|wss?):\/\/[^\s"'<>`)\]}]{1,2048}/gi;
const IBAN = /\b[A-Z]{2}[0-9]{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b/g;
const DIGITS = /(?<![\w.,])\+?\d[\d ()./-]{4,30}\d(?![\w])/g;
// Every repetition is bounded: a long run of digit groups or of dotted words costs linear time, never quadratic.
const AMOUNT = /(?<![\w.,])\d{1,3}(?:[.,' ]\d{3}){1,6}(?:[.,]\d{1,2})?(?![\d])|(?<![\w.,])\d{1,18}(?:[.,]\d{1,2})?(?![\d\w])/g;
const ID = /(?<![\w-])(?=[A-Za-z0-9_.-]{0,63}[0-9])(?=[A-Za-z0-9_.-]{0,63}[A-Za-z])[A-Za-z0-9][A-Za-z0-9_.-]{3,63}(?![\w-])/g;
const TAG = /(?<![\p{L}\p{N}_.])[#@]([\p{L}\p{N}_-]{2,64})/gu;
// A host written bare (`status.mycorp.example`, a DNS name): its last label letters, not a file's extension.
const BARE_HOST = /(?<![\w@./:-])((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.){1,8}([a-z]{2,24}))(?![\w@-]|\.[a-z0-9])/gi;
const FILE_EXTENSIONS = new Set(['pdf', 'txt', 'csv', 'json', 'md', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'png', 'jpg', 'jpeg', 'gif', 'svg', 'zip', 'gz', 'tar', 'js', 'ts', 'py', 'rb', 'go', 'rs', 'java', 'html', 'htm', 'xml', 'yaml', 'yml', 'log', 'sh', 'exe', 'dll', 'eml', 'msg', 'ics', 'mp3', 'mp4', 'wav', 'mov', 'tsx', 'jsx', 'css', 'sql', 'db', 'bak', 'tmp', 'conf', 'cfg', 'ini', 'lock', 'toml']);
const WORD = /[\p{L}\p{N}][\p{L}\p{N}_.@+-]{1,63}/gu;

/** Host of a URL, lower-cased, without `www.`; undefined when it does not parse. */
export function urlHost(url: string): string | undefined {
  try {
    return new globalThis.URL(url).hostname.toLowerCase().replace(/^www\./, '') || undefined;
  } catch {
    return undefined;
  }
}

/** An amount written in any common convention (1,250.00 · 1.250,00 · 1'250 · 1250) as minor units; undefined when it is not one. */
export function amountKey(raw: string): string | undefined {
  const s = raw.replace(/[' ]/g, '');
  if (!/^\d[\d.,]*$/.test(s)) return undefined;
  const lastSep = Math.max(s.lastIndexOf('.'), s.lastIndexOf(','));
  let units = s;
  let cents = '00';
  if (lastSep >= 0 && s.length - lastSep - 1 <= 2) {
    units = s.slice(0, lastSep);
    cents = s.slice(lastSep + 1).padEnd(2, '0');
  }
  units = units.replace(/[.,]/g, '');
  const n = Number(units);
  if (!Number.isSafeInteger(n) || n < 10) return undefined; // 1-digit numbers are everywhere: no trace
  return `amount:${n}${cents}`;
}

/** The typed keys of the values in a text (structured values only: no plain words). */
export function valueKeys(text: string): Set<string> {
  const t = text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text;
  const out = new Set<string>();
  const add = (k: string | undefined) => k && out.size < MAX_KEYS_PER_TEXT && out.add(k);
  for (const m of t.matchAll(EMAIL)) {
    add(`email:${m[0].toLowerCase()}`);
    add(`host:${m[0].slice(m[0].indexOf('@') + 1).toLowerCase()}`);
  }
  for (const m of t.matchAll(URL)) {
    const url = m[0].replace(/[.,;:!?]+$/, '');
    add(`url:${url.toLowerCase().replace(/^[a-z]+:\/\/(www\.)?/, '').replace(/\/+$/, '')}`);
    add(urlHost(url) && `host:${urlHost(url)}`);
  }
  for (const m of t.matchAll(BARE_HOST)) if (!FILE_EXTENSIONS.has(m[2].toLowerCase())) add(`host:${m[1].toLowerCase().replace(/^www\./, '')}`);
  for (const m of t.matchAll(IBAN)) add(`iban:${m[0].replace(/ /g, '')}`);
  for (const m of t.matchAll(DIGITS)) {
    const digits = m[0].replace(/\D/g, '');
    if (digits.length >= 6) add(`num:${digits}`);
  }
  for (const m of t.matchAll(AMOUNT)) add(amountKey(m[0]));
  for (const m of t.matchAll(ID)) if (!m[0].includes('@')) add(`id:${m[0].toLowerCase()}`);
  for (const m of t.matchAll(TAG)) add(`name:${m[1].toLowerCase()}`);
  return out;
}

/** A scalar argument value: its structured keys, plus the whole value as a name (a channel, a payee called by name). */
export function leafKeys(value: string | number | boolean): Set<string> {
  if (typeof value === 'boolean') return new Set();
  if (typeof value === 'number') {
    const out = new Set<string>();
    const a = amountKey(Number.isInteger(value) ? String(value) : value.toFixed(2));
    if (a) out.add(a);
    if (Number.isInteger(value) && String(Math.abs(value)).length >= 6) out.add(`num:${Math.abs(value)}`);
    return out;
  }
  const out = valueKeys(value);
  const name = value.trim().toLowerCase().replace(/^[#@]/, '');
  if (name.length >= 2 && name.length <= 128) out.add(`name:${name}`);
  return out;
}

/** What a person named in their own words: every word as a name, plus the structured values. */
export function namedKeys(text: string): Set<string> {
  const out = valueKeys(text);
  const t = text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text;
  for (const m of t.matchAll(WORD)) {
    if (out.size >= MAX_KEYS_PER_TEXT * 2) break;
    out.add(`name:${m[0].toLowerCase().replace(/[.@+-]+$/, '')}`);
  }
  return out;
}

/** Keyed hash of a value key: 16 bytes of HMAC-SHA-256, base64url. Without the key the value cannot be guessed back. */
export type Hasher = (key: string) => string;

export function hasher(secret: Buffer): Hasher {
  return (key) => createHmac('sha256', secret).update(key).digest().subarray(0, 16).toString('base64url');
}
