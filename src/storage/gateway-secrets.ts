import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { open, seal } from '../auth/crypto-box.js';
import type { Database } from './schema.js';

/**
 * A 32-byte gateway secret called `name` (the L402 macaroon root key): generated once, stored sealed under the master
 * key with the name as associated data, like the Ed25519 signing keys (src/storage/signing-keys.ts). Replicas racing to
 * create it all end up with the first one stored. Throws when the stored secret does not open under `masterKey`.
 */
export async function gatewaySecret(db: Kysely<Database>, masterKey: Buffer, name: string): Promise<Buffer> {
  const aad = `gateway-secret:${name}`;
  let row = await db.selectFrom('gateway_secrets').selectAll().where('name', '=', name).executeTakeFirst();
  if (!row) {
    const sealed = seal(masterKey, randomBytes(32).toString('base64url'), aad);
    await db
      .insertInto('gateway_secrets')
      .values({ name, sealed_secret: sealed, created_at: Date.now() })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    row = await db.selectFrom('gateway_secrets').selectAll().where('name', '=', name).executeTakeFirstOrThrow();
  }
  return Buffer.from(open(masterKey, row.sealed_secret, aad), 'base64url');
}
