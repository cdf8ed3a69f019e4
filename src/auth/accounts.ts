import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { DEFAULT_PLAN } from '../config/plans.js';
import { BastionError, RequestValidationError } from '../errors.js';
import { createAccountForTenant, createAccountWithTenant, type Account } from '../storage/accounts.js';
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

/**
 * An account for an existing tenant, for operators (the CLI): the same e-mail and password rules and argon2id hash as
 * sign-up, but the account joins `tenantId` instead of opening a new tenant.
 */
export async function addAccountToTenant(db: Kysely<Database>, tenantId: string, input: Registration): Promise<Account | 'taken' | 'no-tenant'> {
  const email = normalizeEmail(input.email);
  assertPasswordAcceptable(input.password, email, 'password');
  return createAccountForTenant(db, {
    id: shortId('acc_'),
    tenantId,
    email,
    passwordHash: await hashPassword(input.password),
    displayName: input.displayName,
  });
}
