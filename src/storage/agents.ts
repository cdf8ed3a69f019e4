import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { wireLimits, type AgentRow, type StoredLimits } from '../agents/agent.js';
import { appendActivity } from './agent-activity.js';
import { consumeChallenge } from './agent-challenges.js';
import type { Dialect, Storage } from './database.js';
import type { Database } from './schema.js';
import { isUniqueViolation } from './unique.js';

/** A tenant's registered agents are bounded, like its keys. */
export const MAX_AGENTS_PER_TENANT = 1000;

const newAgentId = () => `agt_${randomBytes(16).toString('base64url')}`;

export async function listAgents(db: Kysely<Database>, tenantId: string): Promise<AgentRow[]> {
  return (await db.selectFrom('agents').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at', 'asc').orderBy('agent_id').limit(MAX_AGENTS_PER_TENANT).execute()) as AgentRow[];
}

/** Only within the tenant: another tenant's agent is as unknown as a missing one. */
export async function findAgent(db: Kysely<Database>, tenantId: string, agentId: string): Promise<AgentRow | undefined> {
  return (await db.selectFrom('agents').selectAll().where('agent_id', '=', agentId).where('tenant_id', '=', tenantId).executeTakeFirst()) as AgentRow | undefined;
}

export type CreateOutcome = { agent: AgentRow } | { refused: 'proof_invalid' | 'did_taken' | 'tenant_full' };

/**
 * Registers an agent and its `agent.registered` record in one transaction, spending the registration challenge (the
 * caller has checked the signature over it). A DID is the identity of at most one active agent on the gateway: the
 * check here answers the usual case, the partial unique index `agents_active_did` the concurrent one.
 */
export async function createAgent(storage: Storage, input: { tenantId: string; displayName: string; did: string; limits: StoredLimits; challenge: string }, now = Date.now()): Promise<CreateOutcome> {
  try {
    return await storage.db.transaction().execute(async (trx): Promise<CreateOutcome> => {
      if (!(await consumeChallenge(trx, input.tenantId, input.did, input.challenge, now))) return { refused: 'proof_invalid' };
      const taken = await trx.selectFrom('agents').select('agent_id').where('did', '=', input.did).where('status', '=', 'active').executeTakeFirst();
      if (taken) return { refused: 'did_taken' };
      const { n } = await trx.selectFrom('agents').select((eb) => eb.fn.countAll<number>().as('n')).where('tenant_id', '=', input.tenantId).executeTakeFirstOrThrow();
      if (Number(n) >= MAX_AGENTS_PER_TENANT) return { refused: 'tenant_full' };
      const row: AgentRow = { agent_id: newAgentId(), tenant_id: input.tenantId, display_name: input.displayName, did: input.did, status: 'active', ...input.limits, created_at: now, updated_at: now, revoked_at: null };
      await trx.insertInto('agents').values(row).execute();
      await appendActivity(trx, storage, input.tenantId, { agentId: row.agent_id, kind: 'agent.registered', detail: { did: row.did, limits: wireLimits(row) } }, now);
      return { agent: row };
    });
  } catch (err) {
    if (isUniqueViolation(err)) return { refused: 'did_taken' };
    throw err;
  }
}

/** The one active agent whose identity is `did`, on any tenant (the partial unique index makes it one at most). */
export async function activeAgentByDid(db: Kysely<Database>, did: string): Promise<AgentRow | undefined> {
  return (await db.selectFrom('agents').selectAll().where('did', '=', did).where('status', '=', 'active').executeTakeFirst()) as AgentRow | undefined;
}

/** The newest registration of `did`, active or not: tells a revoked DID from one never registered. */
export async function newestAgentByDid(db: Kysely<Database>, did: string): Promise<AgentRow | undefined> {
  return (await db.selectFrom('agents').selectAll().where('did', '=', did).orderBy('created_at', 'desc').orderBy('agent_id').limit(1).executeTakeFirst()) as AgentRow | undefined;
}

export type UpdateOutcome = { agent: AgentRow } | { refused: 'not_found' | 'revoked' };

/** Replaces display name and/or limits of an active agent, with an `agent.limits_changed` record (before and after). */
export async function updateAgent(storage: Storage, tenantId: string, agentId: string, change: { displayName?: string; limits?: StoredLimits }, now = Date.now()): Promise<UpdateOutcome> {
  return storage.db.transaction().execute(async (trx) => {
    const current = (await lockAgent(trx, storage.dialect, tenantId, agentId)) as AgentRow | undefined;
    if (!current) return { refused: 'not_found' as const };
    if (current.status !== 'active') return { refused: 'revoked' as const };
    const next: AgentRow = { ...current, ...(change.limits ?? {}), display_name: change.displayName ?? current.display_name, updated_at: now };
    await trx
      .updateTable('agents')
      .set({ display_name: next.display_name, currency: next.currency, max_per_transaction: next.max_per_transaction, max_daily: next.max_daily, max_monthly: next.max_monthly, allowed_payees: next.allowed_payees, expires_at: next.expires_at, updated_at: now })
      .where('agent_id', '=', agentId)
      .execute();
    await appendActivity(trx, storage, tenantId, { agentId, kind: 'agent.limits_changed', detail: { before: wireLimits(current), after: wireLimits(next), display_name_changed: next.display_name !== current.display_name } }, now);
    return { agent: next };
  });
}

/** Final: a revoked agent never becomes active again. Revoking twice answers the revoked agent, without a new record. */
export async function revokeAgent(storage: Storage, tenantId: string, agentId: string, now = Date.now()): Promise<AgentRow | undefined> {
  return storage.db.transaction().execute(async (trx) => {
    const current = (await lockAgent(trx, storage.dialect, tenantId, agentId)) as AgentRow | undefined;
    if (!current || current.status === 'revoked') return current;
    await trx.updateTable('agents').set({ status: 'revoked', revoked_at: now, updated_at: now }).where('agent_id', '=', agentId).execute();
    await appendActivity(trx, storage, tenantId, { agentId, kind: 'agent.revoked', detail: { via: 'delete' } }, now);
    return { ...current, status: 'revoked', revoked_at: now, updated_at: now };
  });
}

/** Revokes every active agent of the tenant, one record each; returns their ids. */
export async function revokeAllAgents(storage: Storage, tenantId: string, now = Date.now()): Promise<string[]> {
  return storage.db.transaction().execute(async (trx) => {
    const active = await trx
      .selectFrom('agents')
      .select('agent_id')
      .where('tenant_id', '=', tenantId)
      .where('status', '=', 'active')
      .orderBy('agent_id')
      .$if(storage.dialect === 'postgres', (q) => q.forUpdate())
      .execute();
    const ids = active.map((a) => a.agent_id);
    if (ids.length === 0) return ids;
    await trx.updateTable('agents').set({ status: 'revoked', revoked_at: now, updated_at: now }).where('tenant_id', '=', tenantId).where('agent_id', 'in', ids).execute();
    for (const id of ids) await appendActivity(trx, storage, tenantId, { agentId: id, kind: 'agent.revoked', detail: { via: 'revoke-all' } }, now);
    return ids;
  });
}

/** Reads the agent row and, on PostgreSQL, locks it until the transaction ends (SQLite transactions never interleave). */
export async function lockAgent(trx: Kysely<Database>, dialect: Dialect, tenantId: string, agentId: string): Promise<AgentRow | undefined> {
  return (await trx
    .selectFrom('agents')
    .selectAll()
    .where('agent_id', '=', agentId)
    .where('tenant_id', '=', tenantId)
    .$if(dialect === 'postgres', (q) => q.forUpdate())
    .executeTakeFirst()) as AgentRow | undefined;
}
