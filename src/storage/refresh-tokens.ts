import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Outcome of presenting a refresh token. */
export type Exchange =
  | { status: 'ok'; accountId: string; familyId: string }
  /** Already exchanged once: the whole family has just been revoked (reuse detection). */
  | { status: 'reused' }
  | { status: 'invalid' };

export async function insertRefreshToken(
  db: Kysely<Database>,
  row: { tokenHash: string; familyId: string; accountId: string; expiresAt: number },
): Promise<void> {
  await db
    .insertInto('refresh_tokens')
    .values({
      token_hash: row.tokenHash,
      family_id: row.familyId,
      account_id: row.accountId,
      created_at: Date.now(),
      expires_at: row.expiresAt,
      used_at: null,
      revoked_at: null,
    })
    .execute();
}

/**
 * Marks the token used, atomically: of two concurrent exchanges only one wins. A token that was already used
 * revokes its family, so a stolen refresh token is worthless once either party refreshes.
 */
export async function exchangeRefreshToken(db: Kysely<Database>, tokenHash: string, now = Date.now()): Promise<Exchange> {
  const won = await db
    .updateTable('refresh_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['account_id', 'family_id'])
    .executeTakeFirst();
  if (won) return { status: 'ok', accountId: won.account_id, familyId: won.family_id };
  const row = await db.selectFrom('refresh_tokens').select(['family_id', 'used_at']).where('token_hash', '=', tokenHash).executeTakeFirst();
  if (row && row.used_at !== null) {
    await revokeFamily(db, row.family_id, now);
    return { status: 'reused' };
  }
  return { status: 'invalid' };
}

export async function revokeFamily(db: Kysely<Database>, familyId: string, now = Date.now()): Promise<void> {
  await db.updateTable('refresh_tokens').set({ revoked_at: now }).where('family_id', '=', familyId).where('revoked_at', 'is', null).execute();
}

/** Revokes every family of the account, or every family but `keep` (change-password keeps the caller's). */
export async function revokeAccountFamilies(db: Kysely<Database>, accountId: string, keep?: string, now = Date.now()): Promise<void> {
  let q = db.updateTable('refresh_tokens').set({ revoked_at: now }).where('account_id', '=', accountId).where('revoked_at', 'is', null);
  if (keep) q = q.where('family_id', '!=', keep);
  await q.execute();
}

/** The family of an access token is live while it has an unrevoked token that has not expired. */
export async function familyActive(db: Kysely<Database>, familyId: string, now = Date.now()): Promise<boolean> {
  const row = await db
    .selectFrom('refresh_tokens')
    .select('token_hash')
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Logout: revokes the family the presented token belongs to (used or not). */
export async function revokeFamilyOfToken(db: Kysely<Database>, tokenHash: string, now = Date.now()): Promise<void> {
  const row = await db.selectFrom('refresh_tokens').select('family_id').where('token_hash', '=', tokenHash).executeTakeFirst();
  if (row) await revokeFamily(db, row.family_id, now);
}
