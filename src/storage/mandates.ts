import type { Transaction } from 'kysely';
import { agentRefusal, spendLimits, type AgentRow } from '../agents/agent.js';
import { spendRefusal, spendWindows } from '../agents/limits.js';
import { toDecimal } from '../agents/money.js';
import { appendActivity } from './agent-activity.js';
import { spentSince } from './agent-quotes.js';
import { lockAgent } from './agents.js';
import type { Storage } from './database.js';
import type { Database } from './schema.js';

export type MandateRefusal =
  | 'AGENT_NOT_FOUND'
  | 'AGENT_REVOKED'
  | 'AGENT_EXPIRED'
  | 'MANDATE_SIGNATURE_INVALID'
  | 'QUOTE_NOT_FOUND'
  | 'QUOTE_AGENT_MISMATCH'
  | 'QUOTE_USED'
  | 'QUOTE_EXPIRED'
  | 'CURRENCY_MISMATCH'
  | 'PAYEE_NOT_ALLOWED'
  | 'LIMIT_PER_TRANSACTION'
  | 'LIMIT_DAILY'
  | 'LIMIT_MONTHLY';

export interface Approval {
  status: 'approved';
  quote_id: string;
  quote_hash: string;
  agent_id: string;
  item: string;
  payee: string;
  amount: string;
  currency: string;
  executed_at: string;
  spent_today: string;
  spent_this_month: string;
}

export type MandateOutcome = { approved: Approval } | { refused: MandateRefusal } | { replay: { bodyHash: string; status: number | null; response: string | null } };

export interface MandateRequest {
  tenantId: string;
  agentId: string;
  quoteHash: string;
  /** Checks the agent's signature with the did:key of the locked agent row. */
  verify: (agent: AgentRow) => Promise<boolean>;
  idempotency?: { key: string; bodyHash: string };
  /** The HTTP answer of an outcome, stored with the idempotency key in the same transaction. */
  answer: (outcome: { approved: Approval } | { refused: MandateRefusal }) => { status: number; body: unknown };
}

/**
 * Executes a mandate in ONE transaction: claim the idempotency key, lock the agent (PostgreSQL `FOR UPDATE`; SQLite
 * transactions never interleave), check it, its signature, the quote and the limits counting what it already spent,
 * then mark the quote used (the spend record) and append the decision to the activity chain. A refusal commits too:
 * its activity record and idempotent answer are kept, and nothing else changes. Concurrent mandates of one agent queue
 * on the agent row, so a quote is spent once and the limits always see every earlier spend.
 */
export async function executeMandate(storage: Storage, req: MandateRequest, now = Date.now()): Promise<MandateOutcome> {
  return storage.db.transaction().execute(async (trx) => {
    if (req.idempotency) {
      const claimed = await trx
        .insertInto('mandate_idempotency')
        .values({ tenant_id: req.tenantId, idempotency_key: req.idempotency.key, body_hash: req.idempotency.bodyHash, status: null, response: null, created_at: now })
        .onConflict((oc) => oc.columns(['tenant_id', 'idempotency_key']).doNothing())
        .executeTakeFirst();
      if (Number(claimed.numInsertedOrUpdatedRows ?? 0) === 0) {
        const stored = await trx.selectFrom('mandate_idempotency').select(['body_hash', 'status', 'response']).where('tenant_id', '=', req.tenantId).where('idempotency_key', '=', req.idempotency.key).executeTakeFirstOrThrow();
        return { replay: { bodyHash: stored.body_hash, status: stored.status, response: stored.response } };
      }
    }
    const outcome = await decide(trx, storage, req, now);
    await appendActivity(
      trx,
      storage,
      req.tenantId,
      'approved' in outcome
        ? { agentId: req.agentId, kind: 'mandate.approved', detail: { quote_id: outcome.approved.quote_id, quote_hash: req.quoteHash, amount: outcome.approved.amount, currency: outcome.approved.currency, payee: outcome.approved.payee } }
        : { agentId: outcome.refused === 'AGENT_NOT_FOUND' ? null : req.agentId, kind: 'mandate.refused', detail: { reason: outcome.refused, quote_hash: req.quoteHash } },
      now,
    );
    if (req.idempotency) {
      const { status, body } = req.answer(outcome);
      await trx.updateTable('mandate_idempotency').set({ status, response: JSON.stringify(body) }).where('tenant_id', '=', req.tenantId).where('idempotency_key', '=', req.idempotency.key).execute();
    }
    return outcome;
  });
}

async function decide(trx: Transaction<Database>, storage: Storage, req: MandateRequest, now: number): Promise<{ approved: Approval } | { refused: MandateRefusal }> {
  const agent = await lockAgent(trx, storage.dialect, req.tenantId, req.agentId);
  if (!agent) return { refused: 'AGENT_NOT_FOUND' };
  const blocked = agentRefusal(agent, now);
  if (blocked) return { refused: blocked };
  if (!(await req.verify(agent))) return { refused: 'MANDATE_SIGNATURE_INVALID' };
  const quote = await trx.selectFrom('agent_quotes').selectAll().where('quote_hash', '=', req.quoteHash).where('tenant_id', '=', req.tenantId).executeTakeFirst();
  if (!quote) return { refused: 'QUOTE_NOT_FOUND' };
  if (quote.agent_id !== agent.agent_id) return { refused: 'QUOTE_AGENT_MISMATCH' };
  if (quote.used_at !== null) return { refused: 'QUOTE_USED' };
  if (Number(quote.expires_at) <= now) return { refused: 'QUOTE_EXPIRED' };
  const amount = Number(quote.amount);
  const { dayStart, monthStart } = spendWindows(now);
  const spent = await spentSince(trx, agent.agent_id, agent.currency, dayStart, monthStart);
  const refusal = spendRefusal(spendLimits(agent), spent, { amount, currency: quote.currency, payee: quote.payee, item: quote.item });
  if (refusal) return { refused: refusal };
  // The agent lock already serializes this; the guard keeps a used quote from ever being spent twice regardless.
  const used = await trx.updateTable('agent_quotes').set({ used_at: now }).where('quote_id', '=', quote.quote_id).where('used_at', 'is', null).executeTakeFirst();
  if (Number(used.numUpdatedRows) !== 1) return { refused: 'QUOTE_USED' };
  return {
    approved: {
      status: 'approved',
      quote_id: quote.quote_id,
      quote_hash: quote.quote_hash,
      agent_id: agent.agent_id,
      item: quote.item,
      payee: quote.payee,
      amount: toDecimal(amount, quote.currency),
      currency: quote.currency,
      executed_at: new Date(now).toISOString(),
      spent_today: toDecimal(spent.day + amount, quote.currency),
      spent_this_month: toDecimal(spent.month + amount, quote.currency),
    },
  };
}
