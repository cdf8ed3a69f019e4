import { randomUUID } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import list from '../../config/common-passwords.json' with { type: 'json' };
import { PORTAL_POLICY } from './portal-policy.js';

// @node-rs/argon2 exports Algorithm as an ambient const enum, which isolatedModules cannot inline: 2 is Argon2id.
const ARGON2ID = 2;
const OPTIONS = { ...PORTAL_POLICY.argon2, algorithm: ARGON2ID };

const COMMON = new Set(list.passwords.map((p) => p.toLowerCase()));
const BASE_WORDS = new Set(list.base_words);
const LEET: Record<string, string> = { '@': 'a', '4': 'a', '0': 'o', '1': 'i', '!': 'i', '3': 'e', '$': 's', '5': 's', '7': 't', '+': 't' };

export async function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** argon2's own verify is constant-time in the digest comparison. A malformed stored hash counts as a mismatch. */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

// A real argon2id hash of a random value, computed once: verifying against it costs what a real check costs,
// so a login for an unknown e-mail takes as long as one with a wrong password.
let dummy: Promise<string> | undefined;

/** Computes the dummy hash ahead of the first login (at listener start), so that login is not the slow one. */
export function primeDummyHash(): Promise<string> {
  dummy ??= hashPassword(randomUUID());
  return dummy;
}

export async function burnVerify(password: string): Promise<void> {
  await verifyPassword(await primeDummyHash(), password);
}

/** Lower-case, undo common leet substitutions inside, strip digits and symbols at both ends. */
function skeleton(password: string): string {
  const lower = password.toLowerCase();
  const core = lower.replace(/^[^a-z@$!]+|[^a-z]+$/g, '');
  return [...core].map((ch) => LEET[ch] ?? ch).join('');
}

/**
 * Why a new password is refused (NIST SP 800-63B §5.1.1.2), or undefined when it is acceptable. Length bounds are
 * enforced by the request schema; this covers what a schema cannot: common passwords, a common word dressed up
 * with digits, too few distinct characters, or the e-mail's local part.
 */
export function passwordProblem(password: string, email?: string): string | undefined {
  const lower = password.toLowerCase();
  if (COMMON.has(lower)) return 'This password is too common: choose another one';
  const core = skeleton(password);
  if (BASE_WORDS.has(core) || COMMON.has(core)) return 'This password is a common word with digits or symbols added: choose another one';
  if (new Set(lower).size < 5) return 'This password repeats too few distinct characters';
  const local = email?.split('@')[0]?.toLowerCase();
  if (local && local.length >= 4 && lower.includes(local)) return 'The password must not contain your e-mail address';
  return undefined;
}
