import { KEYED_RULES, KEYWORDS } from './config.js';

/**
 * Classifies a key name (the identifier left of `=`/`:`) into a credential family:
 * `password`, a vendor type (keyed rules, e.g. `aws_secret_key` for AWS_SECRET_ACCESS_KEY),
 * a generic secret, or nothing (`token_type`, `password_hash`, `csrf_token`, `max_tokens`).
 */

export type KeyFamily = 'password' | 'secret';

export interface KeyClass {
  family: KeyFamily;
  /** Finding type when the value also has the right shape. */
  keyed?: { type: string; value: RegExp }[];
  apiKey: boolean;
}

const PASSWORD_WORDS = new Set(KEYWORDS.passwordWords);
const PASSWORD_FALSE = KEYWORDS.passwordFalseSuffixes;
const SECRET_WORDS = KEYWORDS.secretWords;
const API_KEY_WORDS = KEYWORDS.apiKeyWords;
const EXCLUDE_SUFFIX = new Set(KEYWORDS.excludeSuffixes);
const EXCLUDE_CONTAINS = KEYWORDS.excludeContains;
const KEYED = KEYED_RULES.map((r) => ({ type: r.type, keys: r.keys, value: new RegExp(r.value) }));

/** Split `awsSecretAccessKey`, `AWS_SECRET_ACCESS_KEY`, `x-api-key`, `db.password` into words. */
function words(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

function isPasswordKey(norm: string, parts: string[]): boolean {
  if (parts.some((w) => PASSWORD_WORDS.has(w))) return true;
  if (/password|passwd|passphrase|passcode/.test(norm)) return true;
  if (PASSWORD_FALSE.some((f) => norm.endsWith(f))) return false;
  return /(?:pwd|pass)$/.test(norm);
}

export function classifyKey(key: string): KeyClass | undefined {
  const parts = words(key);
  if (parts.length === 0 || parts.length > 8) return undefined;
  const norm = parts.join('');
  const last = parts[parts.length - 1];
  if (EXCLUDE_SUFFIX.has(last) && parts.length > 1) return undefined;
  if (EXCLUDE_CONTAINS.some((w) => norm.includes(w))) return undefined;
  const keyed = KEYED.filter((r) => r.keys.some((k) => norm.includes(k)));
  const apiKey = API_KEY_WORDS.some((w) => norm.includes(w)) || (parts.includes('api') && parts.includes('key'));
  if (isPasswordKey(norm, parts)) return { family: 'password', apiKey: false };
  if (apiKey || SECRET_WORDS.some((w) => norm.includes(w))) {
    return { family: 'secret', apiKey, ...(keyed.length > 0 ? { keyed } : {}) };
  }
  if (keyed.length > 0) return { family: 'secret', apiKey, keyed };
  return undefined;
}
