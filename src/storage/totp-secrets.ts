import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export interface TotpRecord {
  secretEnc: string;
  enabledAt: number | null;
  lastTimeStep: number | null;
}

export async function findTotp(db: Kysely<Database>, accountId: string): Promise<TotpRecord | undefined> {
  const row = await db.selectFrom('totp_secrets').selectAll().where('account_id', '=', accountId).executeTakeFirst();
  if (!row) return undefined;
  return {
    secretEnc: row.secret_enc,
    enabledAt: row.enabled_at === null ? null : Number(row.enabled_at),
    lastTimeStep: row.last_time_step === null ? null : Number(row.last_time_step),
  };
}

/** Stores a new, not yet confirmed secret, replacing an earlier unconfirmed one (never an enabled one). */
export async function savePendingTotp(db: Kysely<Database>, accountId: string, secretEnc: string): Promise<boolean> {
  const now = Date.now();
  const row = await db
    .insertInto('totp_secrets')
    .values({ account_id: accountId, secret_enc: secretEnc, enabled_at: null, last_time_step: null, created_at: now })
    .onConflict((oc) =>
      oc.column('account_id').doUpdateSet({ secret_enc: secretEnc, last_time_step: null, created_at: now }).where('totp_secrets.enabled_at', 'is', null),
    )
    .returning('account_id')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Records that a code of `timeStep` was accepted, atomically: it succeeds only if no code of this or a later
 * step was accepted before, so two concurrent requests cannot both use one code. `enable` also switches TOTP on.
 */
export async function acceptTimeStep(db: Kysely<Database>, accountId: string, timeStep: number, enable = false): Promise<boolean> {
  const result = await db
    .updateTable('totp_secrets')
    .set(enable ? { last_time_step: timeStep, enabled_at: Date.now() } : { last_time_step: timeStep })
    .where('account_id', '=', accountId)
    .where((eb) => eb.or([eb('last_time_step', 'is', null), eb('last_time_step', '<', timeStep)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteTotp(db: Kysely<Database>, accountId: string): Promise<void> {
  await db.deleteFrom('totp_secrets').where('account_id', '=', accountId).execute();
}
