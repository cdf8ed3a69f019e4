import { createHash, createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { Kysely } from 'kysely';
import { open, seal } from '../auth/crypto-box.js';
import type { Database } from './schema.js';

export interface SigningKey {
  kid: string;
  publicJwk: Record<string, string>;
  privateKey: KeyObject;
}

/**
 * The gateway's Ed25519 signing key called `name`: generated once, its private JWK sealed under the master key
 * (AES-256-GCM, the name as associated data). Replicas racing to create it all end up with the first one stored
 * (insert … on conflict do nothing, then read back). Throws when the stored key does not open under `masterKey`.
 */
export async function signingKey(db: Kysely<Database>, masterKey: Buffer, name: string): Promise<SigningKey> {
  const aad = `gateway-signing-key:${name}`;
  let row = await db.selectFrom('gateway_signing_keys').selectAll().where('name', '=', name).executeTakeFirst();
  if (!row) {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const publicJwk = publicKey.export({ format: 'jwk' }) as Record<string, string>;
    const kid = createHash('sha256').update(publicJwk.x).digest('base64url').slice(0, 16);
    const sealed = seal(masterKey, JSON.stringify(privateKey.export({ format: 'jwk' })), aad);
    await db
      .insertInto('gateway_signing_keys')
      .values({ name, kid, public_jwk: JSON.stringify(publicJwk), sealed_private_jwk: sealed, created_at: Date.now() })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    row = await db.selectFrom('gateway_signing_keys').selectAll().where('name', '=', name).executeTakeFirstOrThrow();
  }
  const privateKey = createPrivateKey({ key: JSON.parse(open(masterKey, row.sealed_private_jwk, aad)), format: 'jwk' });
  return { kid: row.kid, publicJwk: JSON.parse(row.public_jwk) as Record<string, string>, privateKey };
}
