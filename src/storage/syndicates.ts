import { randomBytes, type KeyObject } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { open, seal } from '../auth/crypto-box.js';
import { exportPrivate, generateKeyPair, importPrivate, type KeyPair } from '../tunnels/keys.js';
import { IMPORTED_SOURCE } from '../tunnels/rules.js';
import type { Database } from './schema.js';
import type { SyndicatePinsTable, SyndicatesTable, TunnelsTable } from './syndicate-schema.js';

export type Syndicate = Selectable<SyndicatesTable>;
export type TunnelRow = Selectable<TunnelsTable>;

const aad = (tenantId: string, which: 'identity' | 'signing') => `syndicate:${tenantId}:${which}`;

/**
 * Registers the tenant's syndicate (SPEC §4.8): a new X25519 identity key and Ed25519 signing key, their private halves
 * sealed under the master key with the tenant and purpose as associated data. Registering again only updates
 * display_name (SPEC §3): `on conflict` keeps the first keys, so concurrent registrations agree on one identity.
 */
export async function registerSyndicate(db: Kysely<Database>, masterKey: Buffer, tenantId: string, displayName: string, now = Date.now()): Promise<Syndicate> {
  const identity = generateKeyPair('x25519');
  const signing = generateKeyPair('ed25519');
  await db
    .insertInto('syndicates')
    .values({
      tenant_id: tenantId,
      syndicate_id: `syn_${randomBytes(12).toString('base64url')}`,
      display_name: displayName,
      identity_key: identity.publicKey,
      signing_key: signing.publicKey,
      sealed_identity_private: seal(masterKey, exportPrivate(identity.privateKey), aad(tenantId, 'identity')),
      sealed_signing_private: seal(masterKey, exportPrivate(signing.privateKey), aad(tenantId, 'signing')),
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ display_name: displayName, updated_at: now }))
    .execute();
  return (await findSyndicate(db, tenantId))!;
}

export async function findSyndicate(db: Kysely<Database>, tenantId: string): Promise<Syndicate | undefined> {
  return db.selectFrom('syndicates').selectAll().where('tenant_id', '=', tenantId).executeTakeFirst();
}

/** The syndicate's key pairs, opened with the master key (throws when they do not open under it). */
export function syndicateKeys(s: Syndicate, masterKey: Buffer): { identity: KeyPair; signing: KeyPair } {
  const key = (sealed: string, which: 'identity' | 'signing'): KeyObject => importPrivate(open(masterKey, sealed, aad(s.tenant_id, which)));
  return {
    identity: { publicKey: s.identity_key, privateKey: key(s.sealed_identity_private, 'identity') },
    signing: { publicKey: s.signing_key, privateKey: key(s.sealed_signing_private, 'signing') },
  };
}

export async function findPin(db: Kysely<Database>, tenantId: string, peer: string): Promise<Selectable<SyndicatePinsTable> | undefined> {
  return db.selectFrom('syndicate_pins').selectAll().where('tenant_id', '=', tenantId).where('peer_syndicate_id', '=', peer).executeTakeFirst();
}

/** Stores a tunnel and pins (or re-pins, after re-verification) its peer's identity key, in one transaction. */
export async function insertTunnel(db: Kysely<Database>, row: TunnelRow): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const inserted = await tx.insertInto('tunnels').values(row).onConflict((oc) => oc.column('tunnel_id').doNothing()).executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
    await tx
      .insertInto('syndicate_pins')
      .values({ tenant_id: row.tenant_id, peer_syndicate_id: row.peer_syndicate_id, identity_key: row.peer_identity_key, pinned_at: row.created_at })
      .onConflict((oc) => oc.columns(['tenant_id', 'peer_syndicate_id']).doUpdateSet({ identity_key: row.peer_identity_key, pinned_at: row.created_at }))
      .execute();
    return true;
  });
}

export async function findTunnel(db: Kysely<Database>, tunnelId: string): Promise<TunnelRow | undefined> {
  return db.selectFrom('tunnels').selectAll().where('tunnel_id', '=', tunnelId).executeTakeFirst();
}

export async function listTunnels(db: Kysely<Database>, tenantId: string, limit = 500): Promise<TunnelRow[]> {
  return db.selectFrom('tunnels').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at', 'desc').orderBy('tunnel_id').limit(limit).execute();
}

/** Marks a tunnel (pending or active) revoked; false when it was revoked already. */
export async function revokeTunnel(db: Kysely<Database>, tunnelId: string, now = Date.now()): Promise<boolean> {
  const r = await db.updateTable('tunnels').set({ state: 'revoked', revoked_at: now }).where('tunnel_id', '=', tunnelId).where('state', 'in', ['active', 'pending']).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** A responder's pending side becomes active (once: false when it was not pending). */
export async function activateTunnel(db: Kysely<Database>, tunnelId: string): Promise<boolean> {
  const r = await db.updateTable('tunnels').set({ state: 'active' }).where('tunnel_id', '=', tunnelId).where('state', '=', 'pending').executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Claims sending `ruleId` over `tunnelId`; false when it was sent (or claimed) already. */
export async function claimExport(db: Kysely<Database>, tunnelId: string, ruleId: string, now = Date.now()): Promise<boolean> {
  const r = await db
    .insertInto('tunnel_exports')
    .values({ tunnel_id: tunnelId, rule_id: ruleId, shared_at: now })
    .onConflict((oc) => oc.columns(['tunnel_id', 'rule_id']).doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function releaseExport(db: Kysely<Database>, tunnelId: string, ruleId: string): Promise<void> {
  await db.deleteFrom('tunnel_exports').where('tunnel_id', '=', tunnelId).where('rule_id', '=', ruleId).execute();
}

/** Active, unexpired tunnels of every tenant (automatic sharing). */
export async function activeTunnels(db: Kysely<Database>, now: number, limit = 1000): Promise<TunnelRow[]> {
  return db.selectFrom('tunnels').selectAll().where('state', '=', 'active').where('expires_at', '>', now).orderBy('created_at').limit(limit).execute();
}

/** Rules this gateway may export (src/tunnels/rules.ts exportRefusal), oldest first. */
export async function exportableRuleIds(db: Kysely<Database>, limit = 500): Promise<string[]> {
  const rows = await db
    .selectFrom('evolved_rules')
    .select('id')
    .where('status', '=', 'active')
    .where('scope', '=', 'global')
    .where('source', '!=', IMPORTED_SOURCE)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}
