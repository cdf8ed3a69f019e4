import { createHash, randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { agentRefusal, spendLimits, type AgentRow } from '../agents/agent.js';
import { checkEntitlement } from '../auth/entitlements.js';
import { spendRefusal, spendWindows, type SpendRefusal } from '../agents/limits.js';
import { toDecimal } from '../agents/money.js';
import type { CatalogueItem } from '../payments/catalogue.js';
import { appendActivity } from './agent-activity.js';
import { spentSince } from './agent-quotes.js';
import { activeAgentByDid, lockAgent, newestAgentByDid } from './agents.js';
import type { Storage } from './database.js';
import type { Database } from './schema.js';
import { findTenant } from './tenants.js';

export type ChargeRefusal = 'X402_AGENT_UNKNOWN' | 'X402_REPLAYED' | 'AGENT_REVOKED' | 'AGENT_EXPIRED' | 'AGENT_ADDON_LAPSED' | SpendRefusal;

export interface Charge {
  tenantId: string;
  agentId: string;
  amount: string;
  currency: string;
  spentToday: string;
}

/**
 * L402 payers are anonymous Lightning nodes, not agents of a tenant: their records go to the operator's `default`
 * tenant's chain (SPEC's default tenant_id), readable with that tenant's key.
 */
export const L402_LOG_TENANT = 'default';

const replayKey = (...parts: string[]) => createHash('sha256').update(parts.join('\u0000')).digest('hex');

/**
 * The one agent a did:key pays as: its active registration (one at most, by the partial unique index), else its
 * newest revoked one, whose refusal is recorded in that tenant's log. No row count decides anything.
 */
async function payerOf(db: Kysely<Database>, did: string): Promise<AgentRow | 'X402_AGENT_UNKNOWN'> {
  return (await activeAgentByDid(db, did)) ?? (await newestAgentByDid(db, did)) ?? 'X402_AGENT_UNKNOWN';
}

/** Paying follows the entitlement: the agent's tenant must hold the `agents` add-on (and its tier) at the time of the call. */
async function tenantMayPay(db: Kysely<Database>, tenantId: string): Promise<boolean> {
  const tenant = await findTenant(db, tenantId);
  return tenant !== undefined && checkEntitlement(tenant, { addon: 'agents' }).ok;
}

/**
 * Charges one x402 call in ONE transaction: lock the payer's agent row (PostgreSQL `FOR UPDATE`; SQLite never
 * interleaves transactions), check its status, that its tenant still holds the agents add-on, that the nonce was never
 * used, and its limits counting every earlier spend; then insert the nonce (the unique key is the last guard against a
 * replay), the spend (a used quote row, which is what mandates spend too, so limits see both) and the `mcp.paid`
 * record. Concurrent uses of one nonce queue on the agent row: exactly one is charged. A refusal of a known agent commits its `mcp.payment_refused` record and nothing else.
 */
export async function chargeX402(storage: Storage, req: { did: string; nonce: string; nonceExpiresAt: number; tool: string; item: CatalogueItem }, now = Date.now()): Promise<{ charged: Charge } | { refused: ChargeRefusal }> {
  return storage.db.transaction().execute(async (trx) => {
    const payer = await payerOf(trx, req.did);
    if (typeof payer === 'string') return { refused: payer };
    const key = replayKey('x402', req.did, req.nonce);
    const outcome = await decide(trx, storage, payer, key, req, now);
    const detail = { tool: req.tool, scheme: 'x402', item: req.item.item, nonce_ref: key.slice(0, 16) };
    await appendActivity(
      trx,
      storage,
      payer.tenant_id,
      'charged' in outcome
        ? { agentId: payer.agent_id, kind: 'mcp.paid', detail: { ...detail, amount: outcome.charged.amount, currency: outcome.charged.currency, payee: req.item.payee } }
        : { agentId: payer.agent_id, kind: 'mcp.payment_refused', detail: { ...detail, reason: outcome.refused } },
      now,
    );
    return outcome;
  });
}

async function decide(trx: Transaction<Database>, storage: Storage, payer: AgentRow, key: string, req: Parameters<typeof chargeX402>[1], now: number): Promise<{ charged: Charge } | { refused: ChargeRefusal }> {
  const agent = await lockAgent(trx, storage.dialect, payer.tenant_id, payer.agent_id);
  if (!agent) return { refused: 'X402_AGENT_UNKNOWN' };
  const blocked = agentRefusal(agent, now);
  if (blocked) return { refused: blocked };
  if (!(await tenantMayPay(trx, agent.tenant_id))) return { refused: 'AGENT_ADDON_LAPSED' };
  const seen = await trx.selectFrom('payment_nonces').select('replay_key').where('replay_key', '=', key).executeTakeFirst();
  if (seen) return { refused: 'X402_REPLAYED' };
  // The spend row carries the same key and is never swept: a nonce whose replay row is gone (a sweep on a replica whose
  // clock runs ahead) or that comes back in a freshly signed proof is still a replay, answered as one.
  const spendRow = await trx.selectFrom('agent_quotes').select('quote_id').where('quote_hash', '=', key).executeTakeFirst();
  if (spendRow) return { refused: 'X402_REPLAYED' };
  const { item } = req;
  const { dayStart, monthStart } = spendWindows(now);
  const spent = await spentSince(trx, agent.agent_id, agent.currency, dayStart, monthStart);
  const refusal = spendRefusal(spendLimits(agent), spent, { amount: item.amount, currency: item.currency, payee: item.payee, item: item.item });
  if (refusal) return { refused: refusal };
  const inserted = await trx
    .insertInto('payment_nonces')
    .values({ replay_key: key, scheme: 'x402', created_at: now, expires_at: req.nonceExpiresAt })
    .onConflict((oc) => oc.column('replay_key').doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) return { refused: 'X402_REPLAYED' };
  // The spend record: a quote issued and used at once, for the catalogue price (never more than the agent signed for).
  await trx
    .insertInto('agent_quotes')
    .values({ quote_id: `x402_${randomBytes(16).toString('base64url')}`, quote_hash: key, tenant_id: agent.tenant_id, agent_id: agent.agent_id, item: item.item, payee: item.payee, amount: item.amount, currency: item.currency, created_at: now, expires_at: now, used_at: now })
    .execute();
  return { charged: { tenantId: agent.tenant_id, agentId: agent.agent_id, amount: toDecimal(item.amount, item.currency), currency: item.currency, spentToday: toDecimal(spent.day + item.amount, item.currency) } };
}

/** Spends an L402 credential once: its payment hash enters the replay table with the `mcp.paid` record, or it was spent. */
export async function consumeL402(storage: Storage, req: { paymentHash: string; expiresAt: number; tool: string; amountSat: number }, now = Date.now()): Promise<'consumed' | 'L402_REPLAYED'> {
  return storage.db.transaction().execute(async (trx) => {
    const key = replayKey('l402', req.paymentHash);
    const inserted = await trx
      .insertInto('payment_nonces')
      .values({ replay_key: key, scheme: 'l402', created_at: now, expires_at: req.expiresAt })
      .onConflict((oc) => oc.column('replay_key').doNothing())
      .executeTakeFirst();
    const fresh = Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
    const detail = { tool: req.tool, scheme: 'l402', payment_hash: req.paymentHash, amount_sat: req.amountSat };
    await appendActivity(trx, storage, L402_LOG_TENANT, fresh ? { agentId: null, kind: 'mcp.paid', detail } : { agentId: null, kind: 'mcp.payment_refused', detail: { ...detail, reason: 'L402_REPLAYED' } }, now);
    return fresh ? 'consumed' : 'L402_REPLAYED';
  });
}
