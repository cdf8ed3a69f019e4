import { createHmac } from 'node:crypto';
import { isObject, parseArguments } from '../inspect/effects/args/json.js';
import { leavesOf } from '../inspect/effects/args/leaves.js';
import { amountKey, amounts } from './kinds/amount.js';
import { digitRuns } from './kinds/digits.js';
import { addresses } from './kinds/email.js';
import { bareDomains, normaliseHost, urlHost } from './kinds/host.js';
import { ibans } from './kinds/iban.js';
import { phoneKeys } from './kinds/phone.js';

export { amountKey } from './kinds/amount.js';
export { urlHost } from './kinds/host.js';

/**
 * The values a flow is traced by, each normalised by its kind (src/flows/kinds/: address, host, IBAN, card and
 * account digits, phone, amount) to a typed key (`email:a@b.c`, `iban:DE89…`, `tel:+49…`, `amount:250000`), so the
 * same value written in another notation is the same key. Only keys are compared, and only their keyed hashes are
 * kept: the state says "this value came from that kind of result", never what the value was. Extraction is bounded
 * (text read, keys per text).
 */

const MAX_TEXT = 64 * 1024;
export const MAX_KEYS_PER_TEXT = 512;

const URL = /\b(?:https?|ftp|wss?):\/\/[^\s"'<>`)\]}]{1,2048}/gi;
const ID = /(?<![\w-])(?=[A-Za-z0-9_.-]{0,63}[0-9])(?=[A-Za-z0-9_.-]{0,63}[A-Za-z])[A-Za-z0-9][A-Za-z0-9_.-]{3,63}(?![\w-])/g;
const TAG = /(?<![\p{L}\p{N}_.])[#@]([\p{L}\p{N}_-]{2,64})/gu;
// A host written bare (`status.mycorp.example`, a DNS name): its last label letters, not a file's extension.
const BARE_HOST = /(?<![\w@./:-])((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.){1,8}([a-z]{2,24}))(?![\w@-]|\.[a-z0-9])/gi;
const FILE_EXTENSIONS = new Set(['pdf', 'txt', 'csv', 'json', 'md', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'png', 'jpg', 'jpeg', 'gif', 'svg', 'zip', 'gz', 'tar', 'js', 'ts', 'py', 'rb', 'go', 'rs', 'java', 'html', 'htm', 'xml', 'yaml', 'yml', 'log', 'sh', 'exe', 'dll', 'eml', 'msg', 'ics', 'mp3', 'mp4', 'wav', 'mov', 'tsx', 'jsx', 'css', 'sql', 'db', 'bak', 'tmp', 'conf', 'cfg', 'ini', 'lock', 'toml']);
const WORD = /[\p{L}\p{N}][\p{L}\p{N}_.@+-]{1,63}/gu;

/** A URL's key: scheme and `www.` dropped, host normalised (IDNA, IP notation), trailing slashes dropped. */
export function urlKey(url: string): string | undefined {
  const host = urlHost(url);
  if (!host) return undefined;
  const rest = url.replace(/^[a-z]+:\/\/[^/?#]*/i, '').replace(/\/+$/, '');
  return `url:${host}${rest.toLowerCase()}`;
}

/** The typed keys of the values in a text (structured values only: no plain words). */
export function valueKeys(text: string): Set<string> {
  const t = text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text;
  const out = new Set<string>();
  const add = (k: string | undefined) => k && out.size < MAX_KEYS_PER_TEXT && out.add(k);
  for (const a of addresses(t)) {
    add(`email:${a.address}`);
    add(`host:${a.host}`);
  }
  for (const m of t.matchAll(URL)) {
    const url = m[0].replace(/[.,;:!?]+$/, '');
    add(urlKey(url));
    const host = urlHost(url);
    add(host && `host:${host}`);
  }
  for (const m of t.matchAll(BARE_HOST)) if (!FILE_EXTENSIONS.has(m[2].toLowerCase())) add(((h) => h && `host:${h}`)(normaliseHost(m[1])));
  for (const i of ibans(t)) add(`iban:${i}`);
  for (const run of digitRuns(t)) {
    add(`num:${run.digits}`);
    for (const k of phoneKeys(run.raw)) add(k);
  }
  for (const k of amounts(t)) add(k);
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

/** What a person named in their own words: every word as a name, domains written bare as hosts, plus the structured values. */
export function namedKeys(text: string): Set<string> {
  const out = valueKeys(text);
  const t = text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text;
  for (const d of bareDomains(t)) out.add(`host:${d}`);
  for (const m of t.matchAll(WORD)) {
    if (out.size >= MAX_KEYS_PER_TEXT * 2) break;
    out.add(`name:${m[0].toLowerCase().replace(/[.@+-]+$/, '')}`);
  }
  return out;
}

/** The keys of the values the model wrote into a call's arguments (every leaf's keys; a command line as text). */
export function argumentKeys(argumentsText: string): Set<string> {
  const text = argumentsText.length > MAX_TEXT ? argumentsText.slice(0, MAX_TEXT) : argumentsText;
  const parsed = parseArguments(text);
  if (!isObject(parsed) && !Array.isArray(parsed)) return leafKeys(text);
  const out = new Set<string>();
  for (const leaf of leavesOf(parsed)) {
    for (const k of leafKeys(leaf.value)) {
      if (out.size >= MAX_KEYS_PER_TEXT) return out;
      out.add(k);
    }
  }
  return out;
}

/** Keyed hash of a value key: 16 bytes of HMAC-SHA-256, base64url. Without the key the value cannot be guessed back. */
export type Hasher = (key: string) => string;

export function hasher(secret: Buffer): Hasher {
  return (key) => createHmac('sha256', secret).update(key).digest().subarray(0, 16).toString('base64url');
}
