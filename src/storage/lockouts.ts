import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

export interface LockoutPolicy {
  maxFailures: number;
  windowMs: number;
  lockMs: number;
}

/** Epoch ms until which the subject is locked, or undefined. */
export async function lockedUntil(db: Kysely<Database>, subject: string, now = Date.now()): Promise<number | undefined> {
  const row = await db.selectFrom('auth_lockouts').select('locked_until').where('subject', '=', subject).executeTakeFirst();
  const until = row?.locked_until == null ? undefined : Number(row.locked_until);
  return until !== undefined && until > now ? until : undefined;
}

/**
 * Counts one failure in a fixed window that starts at the first failure (one atomic upsert, so concurrent
 * failures are all counted). Reaching `maxFailures` locks the subject; returns the lock's end when it does.
 */
export async function recordFailure(db: Kysely<Database>, subject: string, policy: LockoutPolicy, now = Date.now()): Promise<number | undefined> {
  const stale = now - policy.windowMs;
  const row = await db
    .insertInto('auth_lockouts')
    .values({ subject, failures: 1, window_start: now, locked_until: null })
    .onConflict((oc) =>
      oc.column('subject').doUpdateSet({
        failures: sql<number>`case when auth_lockouts.window_start <= ${stale} then 1 else auth_lockouts.failures + 1 end`,
        window_start: sql<number>`case when auth_lockouts.window_start <= ${stale} then ${now} else auth_lockouts.window_start end`,
      }),
    )
    .returning('failures')
    .executeTakeFirstOrThrow();
  if (Number(row.failures) < policy.maxFailures) return undefined;
  const until = now + policy.lockMs;
  await db.updateTable('auth_lockouts').set({ locked_until: until, failures: 0, window_start: now }).where('subject', '=', subject).execute();
  return until;
}

/** A success forgets earlier failures (an active lock is checked before, so it is never lifted early). */
export async function clearFailures(db: Kysely<Database>, subject: string, now = Date.now()): Promise<void> {
  await db
    .deleteFrom('auth_lockouts')
    .where('subject', '=', subject)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .execute();
}
