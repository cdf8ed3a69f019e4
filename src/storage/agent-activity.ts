import type { Kysely, Transaction } from 'kysely';
import { GENESIS_HASH, firstBreak, recordHash, type ChainBreak } from '../agents/activity-chain.js';
import type { Dialect } from './database.js';
import type { Database } from './schema.js';

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
 * transactions never interleave), so concurrent appends queue up and every record links to the one before it.
 */
export async function appendActivity(trx: Transaction<Database>, dialect: Dialect, tenantId: string, entry: ActivityEntry, now = Date.now()): Promise<number> {
  await trx
    .insertInto('agent_log_heads')
    .values({ tenant_id: tenantId, seq: 0, hash: GENESIS_HASH })
    .onConflict((oc) => oc.column('tenant_id').doNothing())
    .execute();
  const head = await trx
    .selectFrom('agent_log_heads')
    .select(['seq', 'hash'])
    .where('tenant_id', '=', tenantId)
    .$if(dialect === 'postgres', (q) => q.forUpdate())
    .executeTakeFirstOrThrow();
  const record = {
    tenant_id: tenantId,
    seq: Number(head.seq) + 1,
    agent_id: entry.agentId,
    kind: entry.kind,
    detail: JSON.stringify(entry.detail),
    created_at: now,
    prev_hash: head.hash,
  };
  const hash = recordHash(record);
  await trx.insertInto('agent_activity').values({ ...record, hash }).execute();
  await trx.updateTable('agent_log_heads').set({ seq: record.seq, hash }).where('tenant_id', '=', tenantId).execute();
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

/** Re-hashes the tenant's whole chain in pages of 1000 and reports the first broken link. */
export async function verifyActivityLog(db: Kysely<Database>, tenantId: string): Promise<VerifyResult> {
  const head = await db.selectFrom('agent_log_heads').select(['seq', 'hash']).where('tenant_id', '=', tenantId).executeTakeFirst();
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
  const broken = firstBreak(all, head ? { seq: Number(head.seq), hash: head.hash } : { seq: 0, hash: GENESIS_HASH });
  return { tenant_id: tenantId, records: all.length, intact: broken === undefined, ...(broken ? { first_break: broken } : {}) };
}
