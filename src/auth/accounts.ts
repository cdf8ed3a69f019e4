import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { DEFAULT_PLAN } from '../config/plans.js';
import { BastionError, RequestValidationError } from '../errors.js';
import { createAccountWithTenant, type Account } from '../storage/accounts.js';
import type { Database } from '../storage/schema.js';
import { base62 } from './key-material.js';
import { hashPassword, passwordProblem } from './passwords.js';

/** E-mails compare case-insensitively: stored and looked up trimmed and lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

const shortId = (prefix: string) => prefix + base62(randomBytes(16)).slice(-16);

/** 422 on the named body field when the password is acceptable by length but not by content. */
export function assertPasswordAcceptable(password: string, email: string | undefined, field: string): void {
  const problem = passwordProblem(password, email);
  if (problem) throw new RequestValidationError([{ loc: ['body', field], msg: problem, type: 'value_error' }]);
}

export interface Registration {
  email: string;
  password: string;
  displayName?: string;
  company?: string;
}

/**
 * Creates a customer account and its own tenant on the default plan (SPEC §2). A taken e-mail is a 409 that says
 * no more than that the e-mail cannot be registered.
 */
export async function registerAccount(db: Kysely<Database>, input: Registration): Promise<Account> {
  const email = normalizeEmail(input.email);
  assertPasswordAcceptable(input.password, email, 'password');
  const account = await createAccountWithTenant(db, {
    id: shortId('acc_'),
    tenantId: shortId('tn_'),
    plan: DEFAULT_PLAN,
    email,
    passwordHash: await hashPassword(input.password),
    displayName: input.displayName,
    company: input.company,
  });
  if (!account) throw new BastionError('ACCOUNT_EXISTS');
  return account;
}
