import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { BastionError } from '../errors.js';
import { findAccountByEmail, type Account } from '../storage/accounts.js';
import { clearFailures, lockedUntil, recordFailure } from '../storage/lockouts.js';
import type { Database } from '../storage/schema.js';
import { acceptTimeStep, findTotp, type TotpRecord } from '../storage/totp-secrets.js';
import { open } from './crypto-box.js';
import { normalizeEmail } from './accounts.js';
import { burnVerify, verifyPassword } from './passwords.js';
import { PORTAL_POLICY } from './portal-policy.js';
import { verifyTotp } from './totp.js';

/** Lockout subjects are hashed so the table never holds an e-mail address. */
export function lockSubject(kind: 'login' | 'totp', id: string): string {
  return createHash('sha256').update(`${kind}:${id}`, 'utf8').digest('hex');
}

function lockedError(until: number): BastionError {
  return new BastionError('ACCOUNT_LOCKED', { headers: { 'retry-after': String(Math.max(1, Math.ceil((until - Date.now()) / 1000))) } });
}

async function assertNotLocked(db: Kysely<Database>, subject: string): Promise<void> {
  const until = await lockedUntil(db, subject);
  if (until !== undefined) throw lockedError(until);
}

/** Counts a failure; the failure that reaches the limit is still answered as a failure, later ones as 429. */
async function fail(db: Kysely<Database>, subject: string, name: 'INVALID_CREDENTIALS' | 'INVALID_TOTP'): Promise<never> {
  await recordFailure(db, subject, PORTAL_POLICY.lockout);
  throw new BastionError(name);
}

/**
 * E-mail + password → account, with the per-account lockout. An unknown e-mail costs the same argon2 work, answers
 * the same 401 and locks the same way, so neither wording, timing nor lockout tells whether an account exists.
 */
export async function signInWithPassword(db: Kysely<Database>, rawEmail: string, password: string): Promise<Account> {
  const subject = lockSubject('login', normalizeEmail(rawEmail));
  await assertNotLocked(db, subject);
  const account = await findAccountByEmail(db, normalizeEmail(rawEmail));
  let ok = false;
  if (account) ok = await verifyPassword(account.passwordHash, password);
  else await burnVerify(password);
  if (!account || !ok) return fail(db, subject, 'INVALID_CREDENTIALS');
  await clearFailures(db, subject);
  return account;
}

/** Re-checks the password of a signed-in account (change-password), under the same lockout as sign-in. */
export async function confirmPassword(db: Kysely<Database>, account: Account, password: string): Promise<void> {
  const subject = lockSubject('login', account.email);
  await assertNotLocked(db, subject);
  if (!(await verifyPassword(account.passwordHash, password))) return fail(db, subject, 'INVALID_CREDENTIALS');
  await clearFailures(db, subject);
}

/** The account's TOTP record when two-factor is on. */
export async function enabledTotp(db: Kysely<Database>, accountId: string): Promise<TotpRecord | undefined> {
  const record = await findTotp(db, accountId);
  return record?.enabledAt != null ? record : undefined;
}

/**
 * Checks a 6-digit code against the account's sealed secret and records its time step, so the same code (or an
 * older one) is refused afterwards. Wrong codes count toward the account's TOTP lockout. `enable` confirms setup.
 */
export async function useTotpCode(
  db: Kysely<Database>,
  masterKey: Buffer | undefined,
  accountId: string,
  record: TotpRecord,
  code: string,
  enable = false,
): Promise<void> {
  if (!masterKey) throw new BastionError('MASTER_KEY_MISSING');
  const subject = lockSubject('totp', accountId);
  await assertNotLocked(db, subject);
  let step: number | undefined;
  try {
    step = await verifyTotp(open(masterKey, record.secretEnc, accountId), code, record.lastTimeStep);
  } catch {
    // Sealed under another master key: the secret is unusable, which is a configuration problem, not a wrong code.
    throw new BastionError('MASTER_KEY_MISSING', { message: 'The TOTP secret cannot be opened with the configured BASTION_MASTER_KEY.' });
  }
  if (step === undefined || !(await acceptTimeStep(db, accountId, step, enable))) return fail(db, subject, 'INVALID_TOTP');
  await clearFailures(db, subject);
}
