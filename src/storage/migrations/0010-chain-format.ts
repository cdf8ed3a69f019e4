import { createHmac, timingSafeEqual } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { Kysely } from 'kysely';
import type { Database, Dialect } from '../schema.js';

/**
 * The activity-chain format as migration 0010 wrote it (v1: RFC 8785 canonical records, HMAC-SHA-256 under the
 * chain key, a MAC on the head row). A frozen copy on purpose: a migration has to write today what it wrote when it
 * shipped, whatever src/agents/activity-chain.ts and src/storage/agent-activity.ts become. Never edit it to follow them.
 */
const GENESIS_HASH = '0'.repeat(64);

interface Head {
  tenant_id: string;
  seq: number;
  hash: string;
  legacy_seq: number;
}

function canonical(value: Record<string, unknown>): string {
  const text = canonicalize(value);
  if (text === undefined) throw new Error('record cannot be canonicalized');
  return text;
}

const hmac = (key: Buffer, value: Record<string, unknown>) => createHmac('sha256', key).update(canonical(value), 'utf8').digest('hex');

export function headMacV1(key: Buffer, head: Head): string {
  return hmac(key, { purpose: 'head', tenant_id: head.tenant_id, seq: head.seq, hash: head.hash, legacy_seq: head.legacy_seq });
}

function intact(mac: string | null, expected: string): boolean {
  return mac !== null && mac.length === expected.length && timingSafeEqual(Buffer.from(mac, 'utf8'), Buffer.from(expected, 'utf8'));
}

/** One v1 record appended to the tenant's chain (the head row locked on PostgreSQL), as the 0010-era append did it. */
export async function appendV1(
  db: Kysely<Database>,
  dialect: Dialect,
  key: Buffer,
  tenantId: string,
  entry: { agentId: string | null; kind: string; detail: Record<string, unknown> },
  now: number,
): Promise<void> {
  const genesis = { tenant_id: tenantId, seq: 0, hash: GENESIS_HASH, legacy_seq: 0 };
  await db.insertInto('agent_log_heads').values({ ...genesis, mac: headMacV1(key, genesis) }).onConflict((oc) => oc.column('tenant_id').doNothing()).execute();
  const stored = await db
    .selectFrom('agent_log_heads')
    .select(['seq', 'hash', 'legacy_seq', 'mac'])
    .where('tenant_id', '=', tenantId)
    .$if(dialect === 'postgres', (q) => q.forUpdate())
    .executeTakeFirstOrThrow();
  const head = { tenant_id: tenantId, seq: Number(stored.seq), hash: stored.hash, legacy_seq: Number(stored.legacy_seq) };
  const record = { tenant_id: tenantId, seq: head.seq + 1, agent_id: entry.agentId, kind: entry.kind, detail: JSON.stringify(entry.detail), created_at: now, prev_hash: head.hash };
  const hash = hmac(key, record);
  await db.insertInto('agent_activity').values({ ...record, hash }).execute();
  const mac = intact(stored.mac, headMacV1(key, head)) ? headMacV1(key, { ...head, seq: record.seq, hash }) : stored.mac;
  await db.updateTable('agent_log_heads').set({ seq: record.seq, hash, mac }).where('tenant_id', '=', tenantId).execute();
}
