import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { CHALLENGE_TTL_MS } from '../agents/registration-proof.js';
import type { Database } from './schema.js';

/** Unused challenges a tenant may hold at once: enough for any batch of registrations, bounded against floods. */
export const MAX_OPEN_CHALLENGES_PER_TENANT = 100;

// Stored as its SHA-256: a database reader cannot use an open challenge.
const hashOf = (challenge: string) => createHash('sha256').update(challenge, 'utf8').digest('hex');

/** A fresh challenge for `did`, bound to the tenant; undefined when the tenant already holds too many open ones. */
export async function issueChallenge(db: Kysely<Database>, tenantId: string, did: string, now = Date.now()): Promise<{ challenge: string; expiresAt: number } | undefined> {
  return db.transaction().execute(async (trx) => {
    await trx.deleteFrom('agent_challenges').where('expires_at', '<=', now).execute();
    const { n } = await trx.selectFrom('agent_challenges').select((eb) => eb.fn.countAll<number>().as('n')).where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
    if (Number(n) >= MAX_OPEN_CHALLENGES_PER_TENANT) return undefined;
    const challenge = randomBytes(32).toString('base64url');
    const expiresAt = now + CHALLENGE_TTL_MS;
    await trx.insertInto('agent_challenges').values({ challenge_hash: hashOf(challenge), tenant_id: tenantId, did, expires_at: expiresAt }).execute();
    return { challenge, expiresAt };
  });
}

/** Spends the challenge inside the registration's transaction: true only once, for its tenant and DID, before it expires. */
export async function consumeChallenge(trx: Kysely<Database>, tenantId: string, did: string, challenge: string, now: number): Promise<boolean> {
  const deleted = await trx
    .deleteFrom('agent_challenges')
    .where('challenge_hash', '=', hashOf(challenge))
    .where('tenant_id', '=', tenantId)
    .where('did', '=', did)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) === 1;
}
