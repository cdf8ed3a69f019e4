import t from 'tap';
import { needs, redisPrefix, sqliteUrl } from '../helpers/backends.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { policies } from '../helpers/ratelimit.js';
import { ADMIN_KEY, account, bearer } from '../helpers/portal.js';

t.test('a key deleted or a plan granted on one replica applies on the next request of another', await needs('redis'), async (t) => {
  // Two replicas sharing storage and Redis; replica B caches API-key principals (BASTION_KEY_CACHE_TTL_MS).
  const shared = { databaseUrl: sqliteUrl(t), redis: true, redisPrefix: redisPrefix(), config: { adminKey: ADMIN_KEY, keyCacheTtlMs: 600_000 } };
  const a = await startTestGateway(t, shared);
  const b = await startTestGateway(t, shared);
  const lee = await account(a.adminUrl, 'lee@example.com');
  const health = (key: string) => call(`${b.proxyUrl}/health`, { headers: { 'x-api-key': key } });

  const { key_id, key } = (await call(`${a.adminUrl}/portal/keys`, { headers: bearer(lee.access), body: { name: 'edge' } })).json<{ key_id: string; key: string }>();
  const warm = await health(key);
  t.equal(warm.status, 200, 'replica B resolved and cached the key');
  t.equal(policies(warm.headers['ratelimit-policy']).get('requests-per-month')?.q, 1000);

  await call(`${a.adminUrl}/admin/billing/grant`, { headers: { 'x-admin-key': ADMIN_KEY }, body: { tenant_id: lee.tenant_id, tier: 'startup' } });
  t.equal(policies((await health(key)).headers['ratelimit-policy']).get('requests-per-month')?.q, 100_000, 'the cached principal was refreshed');

  t.equal((await call(`${a.adminUrl}/portal/keys/${key_id}`, { method: 'DELETE', headers: bearer(lee.access) })).status, 204);
  t.equal((await health(key)).status, 401, 'replica B refuses the deleted key on its next request');
});
