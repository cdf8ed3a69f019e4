import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { open, seal } from '../auth/crypto-box.js';
import type { StoredFlowState } from '../flows/state.js';
import type { FlowDecisionsTable } from './flow-schema.js';
import type { Database } from './schema.js';

/**
 * Flow states (metadata of a stored Response or an MCP session) and flow decisions with their approvals, on both
 * backends. Expired rows are never read; one state write in 64 (whole states and parts alike) deletes the expired rows.
 * An MCP session's state is a snapshot plus parts (flow-parts.ts): its rows live as long as its newest one.
 */

let writes = 0;

export async function saveFlowState(db: Kysely<Database>, tenantId: string, key: string, state: StoredFlowState, ttlMs: number): Promise<void> {
  const row = { tenant_id: tenantId, key, state: JSON.stringify(state), expires_at: Date.now() + ttlMs };
  await db
    .insertInto('flow_states')
    .values(row)
    .onConflict((oc) => oc.columns(['tenant_id', 'key']).doUpdateSet({ state: row.state, expires_at: row.expires_at }))
    .execute();
  await noteFlowWrite(db);
}

/** Counts a state write; one in 64 sweeps the expired rows. */
export async function noteFlowWrite(db: Kysely<Database>): Promise<void> {
  if (++writes % 64 === 0) await sweepExpired(db, Date.now());
}

export async function loadFlowState(db: Kysely<Database>, tenantId: string, key: string): Promise<StoredFlowState | undefined> {
  const row = await db.selectFrom('flow_states').select('state').where('tenant_id', '=', tenantId).where('key', '=', key).where('expires_at', '>', Date.now()).executeTakeFirst();
  return row ? (JSON.parse(row.state) as StoredFlowState) : undefined;
}

export async function sweepExpired(db: Kysely<Database>, now: number): Promise<void> {
  // A session's older parts and its snapshot may be past their own expiry while its newest part is not: they stay.
  for (const table of ['flow_states', 'flow_state_parts'] as const) {
    await db
      .deleteFrom(table)
      .where('expires_at', '<=', now)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('flow_state_parts as live').select('live.seq').whereRef('live.tenant_id', '=', `${table}.tenant_id`).whereRef('live.key', '=', `${table}.key`).where('live.expires_at', '>', now))),
      )
      .execute();
  }
  await db.deleteFrom('flow_decisions').where('expires_at', '<=', now).execute();
}

export type FlowDecisionRow = FlowDecisionsTable;
export type NewFlowDecision = Omit<FlowDecisionsTable, 'id' | 'created_at' | 'decided_at' | 'decided_by' | 'expires_at' | 'sealed_destinations'>;

/** Where a withheld call would send data: the MCP server (if any) and each destination field with its value. */
export interface FlowDestinations {
  server: string | null;
  values: { field: string; value: string }[];
}

const aadOf = (row: Pick<FlowDecisionRow, 'tenant_id' | 'id'>) => `flow-destinations\0${row.tenant_id}\0${row.id}`;

/**
 * Records a decision. `sealed` (a call withheld for approval, with a master key) keeps its destinations sealed under
 * the key, bound to the row: the approver reads them, nothing else does, and they are never logged.
 */
export async function recordFlowDecision(db: Kysely<Database>, decision: NewFlowDecision, ttlMs: number, sealed?: { key: Buffer; destinations: FlowDestinations }): Promise<FlowDecisionRow> {
  const now = Date.now();
  const row: FlowDecisionRow = { ...decision, id: `flow_${randomBytes(12).toString('hex')}`, created_at: now, expires_at: now + ttlMs, decided_at: null, decided_by: null, sealed_destinations: null };
  if (sealed) row.sealed_destinations = seal(sealed.key, JSON.stringify(sealed.destinations), aadOf(row));
  await db.insertInto('flow_decisions').values(row).execute();
  return row;
}

/** The decision's destinations, or null: none kept (refused, flagged, settled), no master key, or not this key's. */
export function openDestinations(row: FlowDecisionRow, key: Buffer | undefined): FlowDestinations | null {
  if (!row.sealed_destinations || !key) return null;
  try {
    return JSON.parse(open(key, row.sealed_destinations, aadOf(row))) as FlowDestinations;
  } catch {
    return null;
  }
}

/** A live decision on the same call (same fingerprint) in one of `statuses`, newest first. */
export async function findFlowDecision(db: Kysely<Database>, tenantId: string, fingerprint: string, statuses: string[]): Promise<FlowDecisionRow | undefined> {
  return db
    .selectFrom('flow_decisions')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('fingerprint', '=', fingerprint)
    .where('status', 'in', statuses)
    .where('expires_at', '>', Date.now())
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
}

/** Uses an approval once: true when this caller moved it from approved to used (a second retry is withheld again). */
export async function consumeApproval(db: Kysely<Database>, tenantId: string, id: string): Promise<boolean> {
  // The approval is spent: the destinations it showed are no longer needed.
  const r = await db.updateTable('flow_decisions').set({ status: 'used', sealed_destinations: null }).where('tenant_id', '=', tenantId).where('id', '=', id).where('status', '=', 'approved').where('expires_at', '>', Date.now()).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** One live decision of the tenant by its id. */
export async function getFlowDecision(db: Kysely<Database>, tenantId: string, id: string): Promise<FlowDecisionRow | undefined> {
  return db.selectFrom('flow_decisions').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).where('expires_at', '>', Date.now()).executeTakeFirst();
}

export async function listFlowDecisions(db: Kysely<Database>, tenantId: string, options: { status?: string; limit: number }): Promise<FlowDecisionRow[]> {
  let q = db.selectFrom('flow_decisions').selectAll().where('tenant_id', '=', tenantId).where('expires_at', '>', Date.now());
  if (options.status) q = q.where('status', '=', options.status);
  return q.orderBy('created_at', 'desc').limit(options.limit).execute();
}

/**
 * Approves or denies a pending call. Returns the row after the change and whether this call changed it; undefined
 * when there is no such live row (the caller answers 404, or 409 when it was not pending).
 */
export async function settleApproval(db: Kysely<Database>, tenantId: string, id: string, status: 'approved' | 'denied', by: string, approvalTtlMs: number): Promise<{ row: FlowDecisionRow; changed: boolean } | undefined> {
  const now = Date.now();
  const r = await db
    .updateTable('flow_decisions')
    // A denial ends the decision: its sealed destinations go with it (an approval keeps them until it is used).
    .set({ status, decided_at: now, decided_by: by.slice(0, 128), ...(status === 'approved' ? { expires_at: now + approvalTtlMs } : { sealed_destinations: null }) })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('expires_at', '>', now)
    .executeTakeFirst();
  const row = await db.selectFrom('flow_decisions').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).where('expires_at', '>', now).executeTakeFirst();
  return row ? { row, changed: Number(r.numUpdatedRows) === 1 } : undefined;
}
