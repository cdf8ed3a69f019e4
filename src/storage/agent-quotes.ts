import type { Kysely } from 'kysely';
import type { AgentRow } from '../agents/agent.js';
import type { Quote } from '../payments/quote.js';
import { appendActivity } from './agent-activity.js';
import type { Storage } from './database.js';
import type { Database } from './schema.js';

/** Stores an issued quote and its `quote.issued` record in one transaction. */
export async function recordQuote(storage: Storage, quote: Quote, quoteHash: string, amountMinor: number, now: number): Promise<void> {
  await storage.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('agent_quotes')
      .values({
        quote_id: quote.quote_id,
        quote_hash: quoteHash,
        tenant_id: quote.tenant_id,
        agent_id: quote.agent_id,
        item: quote.item,
        payee: quote.payee,
        amount: amountMinor,
        currency: quote.currency,
        created_at: now,
        expires_at: Date.parse(quote.expires_at),
        used_at: null,
      })
      .execute();
    await appendActivity(trx, storage, quote.tenant_id, { agentId: quote.agent_id, kind: 'quote.issued', detail: { quote_id: quote.quote_id, quote_hash: quoteHash, item: quote.item, payee: quote.payee, amount: quote.amount, currency: quote.currency } }, now);
  });
}

/** A refused quote request leaves its record too (the agent id only when it is one of the tenant's agents). */
export async function recordQuoteRefusal(storage: Storage, tenantId: string, agent: AgentRow | undefined, reason: string, item: string, now: number): Promise<void> {
  await storage.db.transaction().execute((trx) => appendActivity(trx, storage, tenantId, { agentId: agent?.agent_id ?? null, kind: 'quote.refused', detail: { reason, item } }, now));
}

/** What the agent has spent (used quotes) in `currency` since each instant, in minor units. */
export async function spentSince(db: Kysely<Database>, agentId: string, currency: string, dayStart: number, monthStart: number): Promise<{ day: number; month: number }> {
  const row = await db
    .selectFrom('agent_quotes')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>(eb.case().when('used_at', '>=', dayStart).then(eb.ref('amount')).else(0).end()), eb.lit(0)).as('day'),
      eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('month'),
    ])
    .where('agent_id', '=', agentId)
    .where('currency', '=', currency)
    .where('used_at', '>=', monthStart)
    .executeTakeFirstOrThrow();
  return { day: Number(row.day), month: Number(row.month) };
}
