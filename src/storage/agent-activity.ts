import type { Kysely } from 'kysely';
import { GENESIS_HASH, firstBreak, headMac, recordMac, sameDigest, type ChainBreak } from '../agents/activity-chain.js';
import { anchorIntact, anchorMac, type AnchorStore } from './activity-anchor.js';
import { BastionError } from '../errors.js';
import type { Dialect } from './database.js';
import type { Database } from './schema.js';

/** What appending needs: the dialect (row locks) and the chain key derived from BASTION_MASTER_KEY. */
export interface ChainWriter {
  dialect: Dialect;
  activityKey?: Buffer;
  activityAnchor?: AnchorStore;
}

/** No master key, no chain key: agents and payments refuse (503) rather than write records nobody can verify. */
export function activityKeyOf(storage: { activityKey?: Buffer }): Buffer {
  if (!storage.activityKey) throw new BastionError('ACTIVITY_KEY_UNAVAILABLE');
  return storage.activityKey;
}

export interface ActivityEntry {
  agentId: string | null;
  /** `agent.registered`, `agent.limits_changed`, `agent.revoked`, `quote.issued`, `quote.refused`, `mandate.approved`, `mandate.refused`; paid MCP calls: `mcp.paid`, `mcp.payment_refused`. */
  kind: string;
  /** Metadata only: ids, amounts, reason codes. Never request content, signatures or keys. */
  detail: Record<string, unknown>;
}

/**
 * Appends one record to the tenant's chain inside the caller's transaction. The tenant's head row is locked first
 * (PostgreSQL: `FOR UPDATE`, after an insert that waits on a concurrent first insert; SQLite: one connection, so
 * transactions never interleave), so concurrent appends queue up and every record links to the one before it. The
 * record's hash is its HMAC under the chain key, and the head's MAC is renewed, unless the head failed its own
 * check: then the new records are chained and keyed as usual but the bad MAC is kept, so the evidence never heals.
 */
export async function appendActivity(trx: Kysely<Database>, storage: ChainWriter, tenantId: string, entry: ActivityEntry, now = Date.now()): Promise<number> {
  const key = activityKeyOf(storage);
  const genesis = { tenant_id: tenantId, seq: 0, hash: GENESIS_HASH, legacy_seq: 0 };
  await trx
    .insertInto('agent_log_heads')
    .values({ ...genesis, mac: headMac(key, genesis) })
    .onConflict((oc) => oc.column('tenant_id').doNothing())
    .execute();
  const stored = await trx
    .selectFrom('agent_log_heads')
    .select(['seq', 'hash', 'legacy_seq', 'mac'])
    .where('tenant_id', '=', tenantId)
    .$if(storage.dialect === 'postgres', (q) => q.forUpdate())
    .executeTakeFirstOrThrow();
  const head = { tenant_id: tenantId, seq: Number(stored.seq), hash: stored.hash, legacy_seq: Number(stored.legacy_seq) };
  const headIntact = sameDigest(stored.mac, headMac(key, head));
  // The head read under the lock is committed (appends queue on it): the anchor outside the database may move to it.
  if (headIntact && head.seq > 0) void storage.activityAnchor?.advance(tenantId, { seq: head.seq, hash: head.hash, mac: anchorMac(key, tenantId, head.seq, head.hash) }).catch(() => undefined);
  const record = {
    tenant_id: tenantId,
    seq: head.seq + 1,
    agent_id: entry.agentId,
    kind: entry.kind,
    detail: JSON.stringify(entry.detail),
    created_at: now,
    prev_hash: head.hash,
  };
  const hash = recordMac(key, record);
  await trx.insertInto('agent_activity').values({ ...record, hash }).execute();
  const mac = headIntact ? headMac(key, { ...head, seq: record.seq, hash }) : stored.mac;
  await trx.updateTable('agent_log_heads').set({ seq: record.seq, hash, mac }).where('tenant_id', '=', tenantId).execute();
  return record.seq;
}

export interface ActivityRecord {
  seq: number;
  agent_id: string | null;
  kind: string;
  detail: Record<string, unknown>;
  created_at: number;
  prev_hash: string;
  hash: string;
}

/** Newest first, at most `limit`. */
export async function listActivity(db: Kysely<Database>, tenantId: string, options: { agentId?: string; limit: number }): Promise<ActivityRecord[]> {
  const rows = await db
    .selectFrom('agent_activity')
    .select(['seq', 'agent_id', 'kind', 'detail', 'created_at', 'prev_hash', 'hash'])
    .where('tenant_id', '=', tenantId)
    .$if(options.agentId !== undefined, (q) => q.where('agent_id', '=', options.agentId as string))
    .orderBy('seq', 'desc')
    .limit(options.limit)
    .execute();
  return rows.map((r) => ({ ...r, seq: Number(r.seq), created_at: Number(r.created_at), detail: JSON.parse(r.detail) as Record<string, unknown> }));
}

export interface VerifyResult {
  tenant_id: string;
  records: number;
  intact: boolean;
  first_break?: ChainBreak;
}

/**
 * Re-computes the tenant's whole chain with the chain key in pages of 1000 and reports the first broken link; then
 * compares it with what it must hold: the anchor kept outside the database (activity-anchor.ts), and at least one
 * record when the tenant has agents or quotes. An intact log moves the anchor to its head.
 */
export async function verifyActivityLog(storage: { db: Kysely<Database>; activityKey?: Buffer; activityAnchor?: AnchorStore }, tenantId: string): Promise<VerifyResult> {
  const key = activityKeyOf(storage);
  const { db } = storage;
  const head = await db.selectFrom('agent_log_heads').select(['seq', 'hash', 'legacy_seq', 'mac']).where('tenant_id', '=', tenantId).executeTakeFirst();
  const all = [];
  let after = 0;
  for (;;) {
    const page = await db
      .selectFrom('agent_activity')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('seq', '>', after)
      .orderBy('seq', 'asc')
      .limit(1000)
      .execute();
    for (const r of page) all.push({ ...r, seq: Number(r.seq), created_at: Number(r.created_at) });
    if (page.length < 1000) break;
    after = Number(page[page.length - 1].seq);
  }
  const broken = firstBreak(key, all, head ? { tenant_id: tenantId, seq: Number(head.seq), hash: head.hash, legacy_seq: Number(head.legacy_seq), mac: head.mac } : undefined) ?? (await missingRecords(storage, key, tenantId, all));
  if (!broken && all.length > 0) {
    const last = all[all.length - 1];
    // Best effort: a verify that cannot write the anchor still reports what it found (the next append anchors too).
    await storage.activityAnchor?.advance(tenantId, { seq: last.seq, hash: last.hash, mac: anchorMac(key, tenantId, last.seq, last.hash) }).catch(() => undefined);
  }
  return { tenant_id: tenantId, records: all.length, intact: broken === undefined, ...(broken ? { first_break: broken } : {}) };
}

/** A consistent chain that lacks what the anchor saw, or that is empty for a tenant with agents or quotes. */
async function missingRecords(storage: { db: Kysely<Database>; activityAnchor?: AnchorStore }, key: Buffer, tenantId: string, all: { seq: number; hash: string }[]): Promise<ChainBreak | undefined> {
  let anchor;
  try {
    anchor = await storage.activityAnchor?.get(tenantId);
  } catch {
    return { seq: 0, reason: 'anchor_mismatch' }; // unreadable, not JSON, or the store is down: nothing says how far the log had got
  }
  if (anchor) {
    if (!anchorIntact(key, tenantId, anchor)) return { seq: Number(anchor.seq) || 0, reason: 'anchor_mismatch' };
    if (all.length < anchor.seq || !sameDigest(all[anchor.seq - 1].hash, anchor.hash)) return { seq: anchor.seq, reason: 'rolled_back' };
  }
  if (all.length > 0) return undefined;
  // Registering an agent and issuing a quote each write a record: a tenant with either cannot have an empty log.
  const { db } = storage;
  const [agent, quote] = await Promise.all([
    db.selectFrom('agents').select('tenant_id').where('tenant_id', '=', tenantId).limit(1).executeTakeFirst(),
    db.selectFrom('agent_quotes').select('tenant_id').where('tenant_id', '=', tenantId).limit(1).executeTakeFirst(),
  ]);
  return agent || quote ? { seq: 0, reason: 'log_missing' } : undefined;
}
