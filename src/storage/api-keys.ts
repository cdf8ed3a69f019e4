import type { Kysely } from 'kysely';
import { displayPrefix, generateApiKey, generateKeyId, hashKey } from '../auth/key-material.js';
import type { ApiKeysTable, Database } from './schema.js';

export interface ApiKeyRecord {
  keyId: string;
  tenantId: string;
  name: string;
  prefix: string;
  ratePerMinute: number;
  source: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

function toRecord(row: ApiKeysTable): ApiKeyRecord {
  return {
    keyId: row.key_id,
    tenantId: row.tenant_id,
    name: row.name,
    prefix: row.prefix,
    ratePerMinute: row.rate_per_minute,
    source: row.source,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}

export interface NewKey {
  tenantId: string;
  name: string;
  ratePerMinute: number;
  source: string;
  /** Store this exact key (bootstrap keys from BASTION_API_KEYS); otherwise a fresh one is generated. */
  key?: string;
}

/** Creates a key and returns it in clear exactly once, with its record. */
export async function createApiKey(db: Kysely<Database>, input: NewKey): Promise<{ key: string; record: ApiKeyRecord }> {
  const key = input.key ?? generateApiKey();
  const row: ApiKeysTable = {
    key_id: generateKeyId(),
    tenant_id: input.tenantId,
    name: input.name,
    key_hash: hashKey(key),
    prefix: displayPrefix(key),
    rate_per_minute: input.ratePerMinute,
    source: input.source,
    created_at: Date.now(),
    last_used_at: null,
    revoked_at: null,
  };
  await db.insertInto('api_keys').values(row).execute();
  return { key, record: toRecord(row) };
}

export async function findKeyByHash(db: Kysely<Database>, keyHash: string): Promise<ApiKeyRecord | undefined> {
  const row = await db.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
  return row ? toRecord(row) : undefined;
}

export async function findKey(db: Kysely<Database>, keyId: string): Promise<ApiKeyRecord | undefined> {
  const row = await db.selectFrom('api_keys').selectAll().where('key_id', '=', keyId).executeTakeFirst();
  return row ? toRecord(row) : undefined;
}

export async function listKeys(db: Kysely<Database>, tenantId?: string): Promise<ApiKeyRecord[]> {
  let q = db.selectFrom('api_keys').selectAll().orderBy('created_at');
  if (tenantId) q = q.where('tenant_id', '=', tenantId);
  return (await q.execute()).map(toRecord);
}

export async function countActiveKeys(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Returns the key hash of the revoked key (for cache invalidation), or undefined when it was not active. */
export async function revokeKey(db: Kysely<Database>, keyId: string): Promise<string | undefined> {
  const row = await db
    .updateTable('api_keys')
    .set({ revoked_at: Date.now() })
    .where('key_id', '=', keyId)
    .where('revoked_at', 'is', null)
    .returning('key_hash')
    .executeTakeFirst();
  return row?.key_hash;
}

export async function touchKey(db: Kysely<Database>, keyId: string, at: number): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: at }).where('key_id', '=', keyId).execute();
}

/**
 * Makes the stored env-sourced keys match BASTION_API_KEYS: adds new ones, revokes those no longer listed, and
 * gives the listed ones the configured rate (BASTION_SIDECAR_KEY_RATE), so changing it takes effect at the next
 * start even where the database persists. Returns the hashes revoked.
 */
export async function syncBootstrapKeys(
  db: Kysely<Database>,
  keys: { tenant: string; key: string }[],
  ratePerMinute: number,
): Promise<string[]> {
  const wanted = new Map(keys.map((k) => [hashKey(k.key), k]));
  const existing = await db.selectFrom('api_keys').selectAll().where('source', '=', 'env').where('revoked_at', 'is', null).execute();
  const revoked: string[] = [];
  for (const row of existing) {
    if (wanted.has(row.key_hash) && wanted.get(row.key_hash)!.tenant === row.tenant_id) {
      wanted.delete(row.key_hash);
      if (row.rate_per_minute !== ratePerMinute) await updateKey(db, row.tenant_id, row.key_id, { ratePerMinute });
    } else {
      await revokeKey(db, row.key_id);
      revoked.push(row.key_hash);
    }
  }
  for (const [hash, k] of wanted) {
    // A bootstrap key an operator revoked stays revoked even while it is still listed.
    if (await findKeyByHash(db, hash)) continue;
    await createApiKey(db, { tenantId: k.tenant, name: 'bootstrap', ratePerMinute, source: 'env', key: k.key });
  }
  return revoked;
}

export async function countActiveKeysOf(db: Kysely<Database>, tenantId: string): Promise<number> {
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('tenant_id', '=', tenantId)
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Renames or re-rates an active key of the tenant. Returns the updated record and its hash (so a cached principal
 * can be dropped), or undefined when the tenant has no such active key.
 */
export async function updateKey(
  db: Kysely<Database>,
  tenantId: string,
  keyId: string,
  changes: { name?: string; ratePerMinute?: number },
): Promise<{ record: ApiKeyRecord; hash: string } | undefined> {
  const set: Partial<ApiKeysTable> = {};
  if (changes.name !== undefined) set.name = changes.name;
  if (changes.ratePerMinute !== undefined) set.rate_per_minute = changes.ratePerMinute;
  const row = await db
    .updateTable('api_keys')
    .set(set)
    .where('key_id', '=', keyId)
    .where('tenant_id', '=', tenantId)
    .where('revoked_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
  return row ? { record: toRecord(row), hash: row.key_hash } : undefined;
}
