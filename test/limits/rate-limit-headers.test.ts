import t, { type Test } from 'tap';
import { ensureTenant } from '../../src/storage/tenants.js';
import { needs } from '../helpers/backends.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call, type Reply } from '../helpers/http.js';
import { policies } from '../helpers/ratelimit.js';

const filter = (url: string, key: string, body: unknown = { content: 'hello' }) =>
  call(`${url}/filter`, { headers: { 'x-api-key': key }, body });

function assertMirrors(t: Test, res: Reply, name: string) {
  const rl = policies(res.headers.ratelimit).get(name)!;
  t.equal(Number(res.headers['ratelimit-remaining']), rl.r, 'RateLimit-Remaining mirrors r');
  t.equal(Number(res.headers['ratelimit-reset']), rl.t, 'RateLimit-Reset mirrors t');
  t.equal(Number(res.headers['x-ratelimit-remaining']), rl.r);
  const epoch = Number(res.headers['x-ratelimit-reset']);
  const expected = Math.floor(Date.now() / 1000) + rl.t;
  t.ok(Math.abs(epoch - expected) <= 2, 'X-RateLimit-Reset is a Unix epoch naming the same instant');
}

for (const limiter of ['in-process', 'redis'] as const) {
t.test(`per-minute sliding window and draft-09 fields (SPEC §8), ${limiter} limiter`, limiter === 'redis' ? await needs('redis') : {}, async (t) => {
  const gw = await startTestGateway(t, { redis: limiter === 'redis', storage: limiter === 'redis' ? 'postgres' : 'sqlite' });
  const key = await gw.key('acme', { rate: 5 });

  t.test('/health publishes the policy but consumes nothing', async (t) => {
    const res = await call(`${gw.proxyUrl}/health`, { headers: { 'x-api-key': key } });
    const policy = policies(res.headers['ratelimit-policy']);
    t.same(policy.get('requests-per-minute'), { q: 5, w: 60 });
    t.equal(policy.get('requests-per-month')?.q, 1000, 'free plan publishes its monthly quota');
    t.equal(res.headers['ratelimit-limit'], '5');
    t.equal(res.headers['x-ratelimit-limit'], '5');
    t.notOk(res.headers.ratelimit, 'no RateLimit field when nothing was consumed');
    t.notOk(res.headers['ratelimit-remaining']);
    t.notOk(res.headers['ratelimit-reset']);
  });

  t.test('each /filter consumes one request; r counts down; the sixth is 429 with Retry-After', async (t) => {
    for (let i = 1; i <= 5; i++) {
      const res = await filter(gw.proxyUrl, key);
      t.equal(res.status, 200);
      const rl = policies(res.headers.ratelimit);
      t.equal(rl.get('requests-per-minute')?.r, 5 - i);
      t.ok(rl.get('requests-per-minute')!.t <= 60 && rl.get('requests-per-minute')!.t >= 1);
      t.equal(rl.get('requests-per-month')?.r, 1000 - i, 'the monthly counter moves too');
      assertMirrors(t, res, 'requests-per-minute');
    }
    const denied = await filter(gw.proxyUrl, key);
    t.equal(denied.status, 429);
    t.equal(denied.json<{ error: { code: string } }>().error.code, 'BASTION_ERR_RATE_LIMITED');
    const rl = policies(denied.headers.ratelimit).get('requests-per-minute')!;
    t.equal(rl.r, 0);
    t.equal(Number(denied.headers['retry-after']), rl.t, 'Retry-After names the same instant as the reset');
    t.equal(denied.headers['ratelimit-reset'], denied.headers['retry-after']);
    t.ok(Number(denied.headers['retry-after']) > 0 && Number(denied.headers['retry-after']) <= 60);
    t.equal((await call(`${gw.proxyUrl}/health`, { headers: { 'x-api-key': key } })).status, 200, '/health is not limited');
  });

  t.test('each key has its own window', async (t) => {
    const other = await gw.key('acme', { rate: 5 });
    t.equal((await filter(gw.proxyUrl, other)).status, 200);
  });
});
}

t.test('/demo/filter: fixed 10 per minute per client IP, no key', async (t) => {
  const gw = await startTestGateway(t, { config: { allowUnauthenticated: false, apiKeys: [{ tenant: 'x', key: 'bootstrap-key-0123456789' }] } });
  for (let i = 0; i < 10; i++) {
    const res = await call(`${gw.proxyUrl}/demo/filter`, { body: { content: 'hello there' } });
    t.equal(res.status, 200);
    t.equal(policies(res.headers.ratelimit).get('requests-per-minute')?.r, 9 - i);
  }
  const denied = await call(`${gw.proxyUrl}/demo/filter`, { body: { content: 'hello there' } });
  t.equal(denied.status, 429);
  t.same(policies(denied.headers['ratelimit-policy']).get('requests-per-minute'), { q: 10, w: 60 });
});

t.test('monthly quota (SPEC §8): batch items count, a full month gives a long Retry-After and the upgrade URL the operator set', async (t) => {
  const gw = await startTestGateway(t, { config: { upgradeUrl: 'https://plans.reseller.test/upgrade' } });
  const key = await gw.key('tiny', { rate: 1000 });
  // Fill the free plan's 1000 requests: 998 directly in storage, then through HTTP.
  await gw.services.quota.consume('tiny', 997, 1000);
  const batch = await call(`${gw.proxyUrl}/filter/batch`, { headers: { 'x-api-key': key }, body: { items: [{ content: 'a' }, { content: 'b' }] } });
  t.equal(batch.status, 200);
  t.equal(policies(batch.headers.ratelimit).get('requests-per-month')?.r, 1, 'two items counted as two');
  const tooBig = await call(`${gw.proxyUrl}/filter/batch`, { headers: { 'x-api-key': key }, body: { items: [{ content: 'a' }, { content: 'b' }] } });
  t.equal(tooBig.status, 429, 'a batch that does not fit is refused whole');
  const body = tooBig.json<{ error: { code: string; upgrade_url: string; quota: number } }>().error;
  t.equal(body.code, 'BASTION_ERR_QUOTA_EXCEEDED');
  t.equal(body.upgrade_url, 'https://plans.reseller.test/upgrade');
  t.equal(body.quota, 1000);
  const retryAfter = Number(tooBig.headers['retry-after']);
  const monthEnd = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 1, 1);
  t.ok(Math.abs(retryAfter - (monthEnd - Date.now()) / 1000) <= 2, 'Retry-After runs to the start of the next UTC month');
  t.equal(tooBig.headers['ratelimit-limit'], '1000', 'legacy fields describe the policy that refused');
  t.equal(tooBig.headers['ratelimit-reset'], tooBig.headers['retry-after']);
  t.equal((await filter(gw.proxyUrl, key)).status, 200, 'the last unit still fits');
  t.equal((await filter(gw.proxyUrl, key)).status, 429);
});

t.test('enterprise is unlimited and publishes no monthly policy', async (t) => {
  const gw = await startTestGateway(t);
  await ensureTenant(gw.services.storage.db, 'bigco', 'enterprise');
  const key = await gw.key('bigco', { rate: 100 });
  const res = await filter(gw.proxyUrl, key);
  t.equal(res.status, 200);
  const policy = policies(res.headers['ratelimit-policy']);
  t.same([...policy.keys()], ['requests-per-minute']);
  t.same(policy.get('requests-per-minute'), { q: 100, w: 60 }, 'an enterprise key carries its own rate');
});
