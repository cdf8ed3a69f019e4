import t from 'tap';
import { migrate, openStorage } from '../../src/storage/database.js';
import { IDEMPOTENCY_RETENTION_MS, sweepExpired } from '../../src/storage/payment-sweep.js';
import { databaseUrl, needs, type StorageBackend } from '../helpers/backends.js';

const NOW = Date.UTC(2026, 10, 24, 12);

for (const backend of ['sqlite', 'postgres'] as StorageBackend[]) {
  t.test(`${backend}: the sweep deletes expired quotes, old idempotency rows and expired nonces, a bounded batch at a time`, backend === 'postgres' ? await needs('postgres') : {}, async (t) => {
    const storage = openStorage(await databaseUrl(t, backend));
    t.teardown(() => storage.close());
    await migrate(storage);
    const db = storage.db;
    const quote = (id: string, expiresAt: number, usedAt: number | null) =>
      db.insertInto('agent_quotes').values({ quote_id: id, quote_hash: id.padStart(64, '0'), tenant_id: 'acme', agent_id: 'agt_1', item: 'tool:filter', payee: 'bastion:tools', amount: 1, currency: 'USD', created_at: expiresAt - 300_000, expires_at: expiresAt, used_at: usedAt }).execute();
    await quote('q1', NOW - 1, null);
    await quote('q2', NOW - 2, null);
    await quote('q3', NOW - 3, null);
    await quote('spent', NOW - 3, NOW - 100_000);
    await quote('live', NOW + 60_000, null);
    for (const [key, created] of [['old1', NOW - IDEMPOTENCY_RETENTION_MS - 1], ['old2', NOW - IDEMPOTENCY_RETENTION_MS - 5], ['recent', NOW - 1000]] as const) {
      await db.insertInto('mandate_idempotency').values({ tenant_id: 'acme', idempotency_key: key, body_hash: 'h', status: 200, response: '{}', created_at: created }).execute();
    }
    for (const [key, expires] of [['a'.repeat(64), NOW - 1], ['b'.repeat(64), NOW], ['c'.repeat(64), NOW + 1000]] as const) {
      await db.insertInto('payment_nonces').values({ replay_key: key, scheme: 'x402', created_at: NOW - 300_000, expires_at: expires }).execute();
    }

    t.same(await sweepExpired(db, NOW, 2), { quotes: 2, idempotency: 2, nonces: 2 }, 'at most the batch size per kind');
    t.same(await sweepExpired(db, NOW, 2), { quotes: 1, idempotency: 0, nonces: 0 }, 'the rest on the next run');
    t.same(await sweepExpired(db, NOW, 2), { quotes: 0, idempotency: 0, nonces: 0 });
    t.same((await db.selectFrom('agent_quotes').select('quote_id').orderBy('quote_id').execute()).map((r) => r.quote_id), ['live', 'spent'], 'a used quote is the spend record and stays');
    t.same((await db.selectFrom('mandate_idempotency').select('idempotency_key').execute()).map((r) => r.idempotency_key), ['recent']);
    t.same((await db.selectFrom('payment_nonces').select('replay_key').execute()).map((r) => r.replay_key), ['c'.repeat(64)], 'a nonce is kept until its proof would be stale');
  });
}
