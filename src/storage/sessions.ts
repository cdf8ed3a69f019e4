import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export async function insertSession(db: Kysely<Database>, row: { tokenHash: string; accountId: string; expiresAt: number }): Promise<void> {
  await db
    .insertInto('sessions')
    .values({ token_hash: row.tokenHash, account_id: row.accountId, created_at: Date.now(), expires_at: row.expiresAt, revoked_at: null })
    .execute();
}

/** The account of a live session (not revoked, not expired). */
export async function sessionAccount(db: Kysely<Database>, tokenHash: string, now = Date.now()): Promise<string | undefined> {
  const row = await db
    .selectFrom('sessions')
    .select('account_id')
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row?.account_id;
}

export async function revokeSession(db: Kysely<Database>, tokenHash: string, now = Date.now()): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: now }).where('token_hash', '=', tokenHash).where('revoked_at', 'is', null).execute();
}

export async function revokeAccountSessions(db: Kysely<Database>, accountId: string, now = Date.now()): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: now }).where('account_id', '=', accountId).where('revoked_at', 'is', null).execute();
}
