import type { Kysely } from 'kysely';
import type { AccountsTable } from './portal-schema.js';
import type { Database } from './schema.js';
import { findTenant } from './tenants.js';
import { isUniqueViolation } from './unique.js';

export interface Account {
  id: string;
  tenantId: string;
  email: string;
  passwordHash: string;
  displayName: string | null;
  company: string | null;
  createdAt: number;
  updatedAt: number;
}

/** An account with its tenant's entitlements, read fresh on every authenticated portal request. */
export interface AccountWithPlan extends Account {
  plan: string;
  addons: string[];
}

function toAccount(row: AccountsTable): Account {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    email: row.email,
    passwordHash: row.password_hash,
    displayName: row.display_name,
    company: row.company,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export interface NewAccount {
  id: string;
  tenantId: string;
  plan: string;
  email: string;
  passwordHash: string;
  displayName?: string;
  company?: string;
}

/** The stored row of a new account. */
function accountRow(input: Omit<NewAccount, 'plan'>, now: number): AccountsTable {
  return {
    id: input.id,
    tenant_id: input.tenantId,
    email: input.email,
    password_hash: input.passwordHash,
    display_name: input.displayName ?? null,
    company: input.company ?? null,
    created_at: now,
    updated_at: now,
  };
}

/**
 * Creates the tenant and its first account in one transaction (created together).
 * Returns undefined when the e-mail is taken, leaving no tenant behind.
 */
export async function createAccountWithTenant(db: Kysely<Database>, input: NewAccount): Promise<Account | undefined> {
  const now = Date.now();
  const row = accountRow(input, now);
  try {
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('tenants').values({ id: input.tenantId, plan: input.plan, addons: '[]', created_at: now }).execute();
      await trx.insertInto('accounts').values(row).execute();
    });
  } catch (err) {
    if (isUniqueViolation(err)) return undefined;
    throw err;
  }
  return toAccount(row);
}

/**
 * Adds an account to a tenant that already exists (an operator opening the console for a tenant the CLI or a
 * set-up created, such as `default`). Returns 'taken' when the e-mail has an account, 'no-tenant' when the tenant is
 * missing; nothing is written in either case.
 */
export async function createAccountForTenant(db: Kysely<Database>, input: Omit<NewAccount, 'plan'>): Promise<Account | 'taken' | 'no-tenant'> {
  const now = Date.now();
  const row = accountRow(input, now);
  try {
    return await db.transaction().execute(async (trx) => {
      const tenant = await trx.selectFrom('tenants').select('id').where('id', '=', input.tenantId).executeTakeFirst();
      if (!tenant) return 'no-tenant' as const;
      await trx.insertInto('accounts').values(row).execute();
      return toAccount(row);
    });
  } catch (err) {
    if (isUniqueViolation(err)) return 'taken';
    throw err;
  }
}

export async function findAccountByEmail(db: Kysely<Database>, email: string): Promise<Account | undefined> {
  const row = await db.selectFrom('accounts').selectAll().where('email', '=', email).executeTakeFirst();
  return row ? toAccount(row) : undefined;
}

export async function findAccount(db: Kysely<Database>, id: string): Promise<Account | undefined> {
  const row = await db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toAccount(row) : undefined;
}

export async function findAccountWithPlan(db: Kysely<Database>, id: string): Promise<AccountWithPlan | undefined> {
  const account = await findAccount(db, id);
  if (!account) return undefined;
  const tenant = await findTenant(db, account.tenantId);
  if (!tenant) return undefined;
  return { ...account, plan: tenant.plan, addons: tenant.addons };
}

export async function updateProfile(
  db: Kysely<Database>,
  id: string,
  changes: { displayName?: string | null; company?: string | null },
): Promise<void> {
  const set: Partial<AccountsTable> = { updated_at: Date.now() };
  if (changes.displayName !== undefined) set.display_name = changes.displayName;
  if (changes.company !== undefined) set.company = changes.company;
  await db.updateTable('accounts').set(set).where('id', '=', id).execute();
}

export async function setPasswordHash(db: Kysely<Database>, id: string, passwordHash: string): Promise<void> {
  await db.updateTable('accounts').set({ password_hash: passwordHash, updated_at: Date.now() }).where('id', '=', id).execute();
}
