import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Adds a signup; a second signup of the same e-mail changes nothing. Returns true when the row is new. */
export async function addToWaitlist(
  db: Kysely<Database>,
  entry: { email: string; company?: string; useCase?: string },
): Promise<boolean> {
  const row = await db
    .insertInto('waitlist')
    .values({ email: entry.email, company: entry.company ?? null, use_case: entry.useCase ?? null, created_at: Date.now() })
    .onConflict((oc) => oc.column('email').doNothing())
    .returning('email')
    .executeTakeFirst();
  return row !== undefined;
}

export async function countWaitlist(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('waitlist').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
