import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Stores a reset token's hash; earlier unused tokens of the account stop working (only the newest counts). */
export async function insertPasswordReset(
  db: Kysely<Database>,
  row: { tokenHash: string; accountId: string; expiresAt: number },
): Promise<void> {
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('password_resets').set({ used_at: now }).where('account_id', '=', row.accountId).where('used_at', 'is', null).execute();
    await trx
      .insertInto('password_resets')
      .values({ token_hash: row.tokenHash, account_id: row.accountId, created_at: now, expires_at: row.expiresAt, used_at: null })
      .execute();
  });
}

/** The account of a usable (unused, unexpired) token, without consuming it. */
export async function peekPasswordReset(db: Kysely<Database>, tokenHash: string, now = Date.now()): Promise<string | undefined> {
  const row = await db
    .selectFrom('password_resets')
    .select('account_id')
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row?.account_id;
}

/** Consumes the token atomically: of two concurrent resets only one gets the account id. */
export async function consumePasswordReset(db: Kysely<Database>, tokenHash: string, now = Date.now()): Promise<string | undefined> {
  const row = await db
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('account_id')
    .executeTakeFirst();
  return row?.account_id;
}
