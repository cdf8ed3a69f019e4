import { createHash } from 'node:crypto';
import t from 'tap';
import { databaseQuota } from '../../src/limits/monthly-quota.js';
import { countActiveKeys, createApiKey, findKeyByHash, listKeys, revokeKey, syncBootstrapKeys } from '../../src/storage/api-keys.js';
import { migrate, openStorage } from '../../src/storage/database.js';
import { createTenant, ensureTenant, findTenant } from '../../src/storage/tenants.js';
import { databaseUrl, needs, type StorageBackend } from '../helpers/backends.js';

for (const backend of ['sqlite', 'postgres'] as StorageBackend[]) {
  t.test(`${backend} storage`, backend === 'postgres' ? await needs('postgres') : {}, async (t) => {
    const storage = openStorage(await databaseUrl(t, backend));
    t.teardown(() => storage.close());

    t.test('migrations apply once and are idempotent', async (t) => {
      t.same(await migrate(storage), ['0001-foundation', '0002-portal', '0003-evolution', '0004-tenant-policies', '0005-evolution-scope', '0006-agents', '0007-payments', '0008-syndicates', '0010-agent-identity', '0011-mcp-proxy', '0012-flow-policies', '0013-flow-state-parts', '0014-flow-destinations']);
      t.same(await migrate(storage), []);
    });

    t.test('tenants keep their plan; ensureTenant never changes an existing one', async (t) => {
      await createTenant(storage.db, 'acme', 'startup');
      const again = await ensureTenant(storage.db, 'acme', 'free');
      t.equal(again.plan, 'startup');
      t.same((await findTenant(storage.db, 'acme'))?.addons, []);
      t.equal(await findTenant(storage.db, 'nobody'), undefined);
    });

    t.test('only the SHA-256 of a key and a display prefix are stored', async (t) => {
      const { key, record } = await createApiKey(storage.db, { tenantId: 'acme', name: 'ci', ratePerMinute: 30, source: 'cli' });
      t.match(key, /^bst_[0-9A-Za-z]{43}$/);
      const hash = createHash('sha256').update(key).digest('hex');
      const found = await findKeyByHash(storage.db, hash);
      t.equal(found?.keyId, record.keyId);
      t.equal(found?.ratePerMinute, 30);
      t.equal(found?.prefix, key.slice(0, 10));
      const raw = await storage.db.selectFrom('api_keys').selectAll().execute();
      t.notOk(JSON.stringify(raw).includes(key), 'the clear key appears nowhere in the table');
    });

    t.test('revoking marks the key and reports its hash once', async (t) => {
      const { key, record } = await createApiKey(storage.db, { tenantId: 'acme', name: 'tmp', ratePerMinute: 60, source: 'cli' });
      const before = await countActiveKeys(storage.db);
      t.equal(await revokeKey(storage.db, record.keyId), createHash('sha256').update(key).digest('hex'));
      t.equal(await revokeKey(storage.db, record.keyId), undefined, 'second revoke is a no-op');
      t.equal(await countActiveKeys(storage.db), before - 1);
      t.ok((await findKeyByHash(storage.db, createHash('sha256').update(key).digest('hex')))?.revokedAt);
    });

    t.test('bootstrap keys follow BASTION_API_KEYS: added, kept, revoked when removed', async (t) => {
      await ensureTenant(storage.db, 'boot', 'free');
      const k1 = { tenant: 'boot', key: 'boot-key-one-0123456789' };
      const k2 = { tenant: 'boot', key: 'boot-key-two-0123456789' };
      t.same(await syncBootstrapKeys(storage.db, [k1, k2], 60), []);
      t.equal((await listKeys(storage.db, 'boot')).length, 2);
      const revoked = await syncBootstrapKeys(storage.db, [k1], 60);
      t.same(revoked, [createHash('sha256').update(k2.key).digest('hex')]);
      const active = (await listKeys(storage.db, 'boot')).filter((k) => !k.revokedAt);
      t.equal(active.length, 1);
    });

    t.test('monthly counters admit whole units only, atomically', async (t) => {
      const quota = databaseQuota(storage.db);
      const now = Date.UTC(2026, 10, 15);
      t.match(await quota.consume('acme', 3, 5, now), { allowed: true, used: 3, remaining: 2 });
      t.match(await quota.consume('acme', 3, 5, now), { allowed: false, used: 3, remaining: 2 }, 'a batch that does not fit is refused whole');
      t.match(await quota.consume('acme', 2, 5, now), { allowed: true, used: 5, remaining: 0 });
      t.match(await quota.consume('acme', 1, 5, now), { allowed: false });
      t.match(await quota.consume('acme', 9, 5, now), { allowed: false, used: 5 });
      // A new UTC month starts from zero.
      t.match(await quota.consume('acme', 1, 5, Date.UTC(2026, 11, 1)), { allowed: true, used: 1 });
      // Concurrent consumers never overshoot the quota.
      const results = await Promise.all(Array.from({ length: 20 }, () => quota.consume('race', 1, 7, now)));
      t.equal(results.filter((r) => r.allowed).length, 7);
      t.equal(await quota.used('race', now), 7);
    });
  });
}
