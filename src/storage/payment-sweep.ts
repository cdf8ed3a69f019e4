import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Idempotent mandate answers are replayable for a day (the window Stripe documents for its Idempotency-Key). */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60_000;
/** Rows deleted per table per sweep: a sweep is a few short statements, however far behind it is. */
export const SWEEP_BATCH = 500;

export interface SweepCounts {
  quotes: number;
  idempotency: number;
  nonces: number;
}

/**
 * Deletes what can no longer matter, at most SWEEP_BATCH rows of each kind: quotes that expired unused (a used quote is
 * the spend record and stays), idempotency rows past their retention, and payment nonces past their expiry (a proof
 * that old is refused as stale before its nonce is looked at). Select-then-delete by key keeps it portable (SQLite has
 * no DELETE … LIMIT) and bounded.
 */
export async function sweepExpired(db: Kysely<Database>, now = Date.now(), batch = SWEEP_BATCH): Promise<SweepCounts> {
  const quotes = (await db.selectFrom('agent_quotes').select('quote_id').where('used_at', 'is', null).where('expires_at', '<=', now).limit(batch).execute()).map((r) => r.quote_id);
  if (quotes.length > 0) await db.deleteFrom('agent_quotes').where('quote_id', 'in', quotes).where('used_at', 'is', null).execute();

  const idem = await db.selectFrom('mandate_idempotency').select(['tenant_id', 'idempotency_key']).where('created_at', '<=', now - IDEMPOTENCY_RETENTION_MS).limit(batch).execute();
  for (const row of idem) {
    await db.deleteFrom('mandate_idempotency').where('tenant_id', '=', row.tenant_id).where('idempotency_key', '=', row.idempotency_key).execute();
  }

  const nonces = (await db.selectFrom('payment_nonces').select('replay_key').where('expires_at', '<=', now).limit(batch).execute()).map((r) => r.replay_key);
  if (nonces.length > 0) await db.deleteFrom('payment_nonces').where('replay_key', 'in', nonces).execute();
  return { quotes: quotes.length, idempotency: idem.length, nonces: nonces.length };
}
