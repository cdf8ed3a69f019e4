import type { Kysely } from 'kysely';
import { noteFlowWrite } from './flows.js';
import type { Database } from './schema.js';

/**
 * A long-lived flow state (an MCP session) as a snapshot plus numbered parts, on both backends (migration 0013).
 * Per key the part numbers are gapless: appending number n fails when another writer has it, so the writer reads the
 * newer parts and appends after them. The part with the highest number is never deleted by compaction, so a reader
 * that knows up to n and reads `seq > n` either gets n + 1 first or sees the gap (a compaction it must reload after).
 */

/** Parts read at once: compaction keeps a key's parts far below this; past it the reader treats the state as unreadable. */
export const MAX_PARTS_READ = 1024;

export interface StoredPart {
  seq: number;
  part: string;
  expires_at: number;
}

export interface FlowSnapshot {
  state: string;
  seq: number;
  expires_at: number;
}

/** Appends part `seq`; false when that number is taken (another replica appended first). */
export async function appendFlowPart(db: Kysely<Database>, tenantId: string, key: string, seq: number, part: string, ttlMs: number): Promise<boolean> {
  const r = await db
    .insertInto('flow_state_parts')
    .values({ tenant_id: tenantId, key, seq, part, expires_at: Date.now() + ttlMs })
    .onConflict((oc) => oc.columns(['tenant_id', 'key', 'seq']).doNothing())
    .executeTakeFirst();
  await noteFlowWrite(db);
  return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** The parts numbered after `after`, in order (at most MAX_PARTS_READ + 1, so the caller sees when there are more). */
export function flowPartsAfter(db: Kysely<Database>, tenantId: string, key: string, after: number): Promise<StoredPart[]> {
  return db
    .selectFrom('flow_state_parts')
    .select(['seq', 'part', 'expires_at'])
    .where('tenant_id', '=', tenantId)
    .where('key', '=', key)
    .where('seq', '>', after)
    .orderBy('seq')
    .limit(MAX_PARTS_READ + 1)
    .execute();
}

/** The snapshot row, expired or not: a session's life is that of its newest row, which may be a part. */
export function flowSnapshot(db: Kysely<Database>, tenantId: string, key: string): Promise<FlowSnapshot | undefined> {
  return db.selectFrom('flow_states').select(['state', 'seq', 'expires_at']).where('tenant_id', '=', tenantId).where('key', '=', key).executeTakeFirst();
}

/**
 * Writes the merged state as the snapshot covering parts up to `seq` and deletes the parts it covers but the last.
 * Safe when two replicas compact at once: a snapshot only replaces an older one, and each deletes only parts its own
 * snapshot covers after writing it, so whichever snapshot stays covers every part deleted.
 */
export async function compactFlowParts(db: Kysely<Database>, tenantId: string, key: string, seq: number, state: string, ttlMs: number): Promise<void> {
  const expires_at = Date.now() + ttlMs;
  await db
    .insertInto('flow_states')
    .values({ tenant_id: tenantId, key, state, seq, expires_at })
    .onConflict((oc) => oc.columns(['tenant_id', 'key']).doUpdateSet({ state, seq, expires_at }).where('flow_states.seq', '<', seq))
    .execute();
  await db.deleteFrom('flow_state_parts').where('tenant_id', '=', tenantId).where('key', '=', key).where('seq', '<', seq).execute();
}
