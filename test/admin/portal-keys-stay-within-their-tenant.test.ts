import t from 'tap';
import { recordVerdicts, type StatVerdict } from '../../src/storage/daily-stats.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { account, bearer, errorCodeOf } from '../helpers/portal.js';

const blocked: StatVerdict = {
  allowed: false,
  risk_level: 'BLOCK',
  action: 'block',
  flags: [{ layer: 'semantic', type: 'prompt_injection', score: 0.97, category: 'injection' }],
  secrets: [],
};

t.test('a tenant sees and changes only its own keys and statistics', async (t) => {
  const gw = await startTestGateway(t);
  const portal = (path: string, init: Parameters<typeof call>[1] = {}) => call(`${gw.adminUrl}/portal${path}`, init);
  const alice = await account(gw.adminUrl, 'ivy@example.com');
  const mallory = await account(gw.adminUrl, 'mallory@example.com');

  const created = await portal('/keys', { headers: bearer(alice.access), body: { name: 'prod', rate_per_minute: 30 } });
  t.equal(created.status, 201);
  const { key_id, key } = created.json<{ key_id: string; key: string }>();

  t.test('listing is scoped to the tenant', async (t) => {
    t.same((await portal('/keys', { headers: bearer(mallory.access) })).json(), { keys: [] });
    t.equal((await portal('/keys', { headers: bearer(alice.access) })).json<{ keys: unknown[] }>().keys.length, 1);
  });

  t.test("another tenant's key is indistinguishable from a missing one", async (t) => {
    const patch = await portal(`/keys/${key_id}`, { method: 'PATCH', headers: bearer(mallory.access), body: { name: 'mine now' } });
    t.equal(patch.status, 404);
    const del = await portal(`/keys/${key_id}`, { method: 'DELETE', headers: bearer(mallory.access) });
    t.equal(del.status, 404);
    t.same(del.json(), (await portal('/keys/key_doesnotexist00', { method: 'DELETE', headers: bearer(mallory.access) })).json());
    t.equal((await call(`${gw.proxyUrl}/health`, { headers: { 'x-api-key': key } })).status, 200, 'the key still works');
  });

  t.test('the owner renames and re-rates within the plan; the data plane sees the new rate', async (t) => {
    const patch = await portal(`/keys/${key_id}`, { method: 'PATCH', headers: bearer(alice.access), body: { name: 'production', rate_per_minute: 45 } });
    t.equal(patch.status, 200);
    t.match(patch.json(), { key_id, name: 'production', rate_per_minute: 45 });
    const health = await call(`${gw.proxyUrl}/health`, { headers: { 'x-api-key': key } });
    t.equal(health.headers['ratelimit-limit'], '45');

    const over = await portal(`/keys/${key_id}`, { method: 'PATCH', headers: bearer(alice.access), body: { rate_per_minute: 61 } });
    t.equal(over.status, 422, 'free allows at most 60 per minute');
    t.same(over.json(), {
      detail: [{ loc: ['body', 'rate_per_minute'], msg: 'Input should be less than or equal to 60 on plan free', type: 'less_than_equal' }],
    });
    t.equal((await portal('/keys', { headers: bearer(alice.access), body: { name: 'x', rate_per_minute: 1000 } })).status, 422);
    t.equal((await portal(`/keys/${key_id}`, { method: 'PATCH', headers: bearer(alice.access), body: {} })).status, 422, 'an empty patch');
    t.equal((await portal(`/keys/${key_id}`, { method: 'PATCH', headers: bearer(alice.access), body: { prefix: 'x' } })).status, 422, 'unknown field');
  });

  t.test('statistics are per tenant', async (t) => {
    await recordVerdicts(gw.services.storage.db, alice.tenant_id, [blocked, blocked]);
    const aliceSummary = (await portal('/stats/summary', { headers: bearer(alice.access) })).json();
    t.match(aliceSummary, { tenant_id: alice.tenant_id, requests: 2, blocked: 2 });
    const mallorySummary = (await portal('/stats/summary', { headers: bearer(mallory.access) })).json();
    t.match(mallorySummary, { tenant_id: mallory.tenant_id, requests: 0, blocked: 0 });
    const daily = (await portal('/stats/daily?days=3', { headers: bearer(mallory.access) })).json<{ series: { requests: number }[] }>();
    t.same(daily.series.map((d) => d.requests), [0, 0, 0]);
  });

  t.test('portal routes need a valid bearer token', async (t) => {
    for (const headers of [{}, bearer('not-a-jwt'), { authorization: `Basic ${alice.access}` }, { 'x-api-key': key }] as Record<string, string>[]) {
      const res = await portal('/keys', { headers });
      t.equal(res.status, 401);
      t.equal(errorCodeOf(res), 'BASTION_ERR_PORTAL_UNAUTHENTICATED');
      t.match(res.headers['www-authenticate'], /^Bearer /);
    }
  });
});
