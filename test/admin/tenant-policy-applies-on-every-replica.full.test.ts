import t from 'tap';
import { needs, redisPrefix, sqliteUrl } from '../helpers/backends.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';

const ADMIN_KEY = 'test-admin-key-0123456789abcdef';
const SECRET_TEXT = 'Deploy with token ghp_' + 'R7xK2mQ9vL4nP8sT1wY6zB3cD5fH0jA2gE4i please.';

interface Verdict {
  allowed: boolean;
  action: string;
}
interface PolicyAnswer {
  tenant_id: string;
  policy: Record<string, unknown>;
  effective: Record<string, unknown>;
}

t.test('operator route: GET/PUT /admin/tenants/{id}/policy', async (t) => {
  const gw = await startTestGateway(t, { config: { adminKey: ADMIN_KEY } });
  const acme = await gw.key('acme', { rate: 1000 });
  const globex = await gw.key('globex', { rate: 1000 });
  const url = (tenant: string) => `${gw.adminUrl}/admin/tenants/${tenant}/policy`;
  const admin = { 'x-admin-key': ADMIN_KEY };
  const put = (tenant: string, body: unknown) => call(url(tenant), { method: 'PUT', headers: admin, body });
  const filter = (key: string, content: string) => call(`${gw.proxyUrl}/filter`, { headers: { 'x-api-key': key }, body: { content } }).then((r) => r.json<Verdict>());

  t.test('guarded by X-Admin-Key; unknown tenants are 404', async (t) => {
    t.equal((await call(url('acme'))).status, 401);
    t.equal((await call(url('acme'), { headers: { 'x-admin-key': 'wrong-admin-key-0123456789' } })).status, 401);
    t.equal((await call(url('acme'), { headers: { 'x-api-key': acme } })).status, 401, 'an API key is not an admin key');
    t.equal((await call(url('nobody'), { headers: admin })).status, 404);
    t.equal((await put('nobody', { strict: true })).status, 404);
  });

  t.test('a tenant starts on the documented defaults', async (t) => {
    const res = await call(url('acme'), { headers: admin });
    t.equal(res.status, 200);
    const body = res.json<PolicyAnswer>();
    t.same(body.policy, {});
    t.same(body.effective, { strict: false, secret_mode: 'redact', category_actions: {}, allow_domains: [], neutralize_causes: false, system_messages: 'secrets_only', content_parts: 'inspect', flows: { enabled: true, action: 'block', labels: [], allow_destinations: [], own_domains: [], internal_hosts: [] }, model_stage: 'uncertain', harmful_content: 'flag', tool_result_injection: 'quarantine' });
  });

  t.test('the body is strict and bounded: unknown fields and bad values are 422', async (t) => {
    for (const body of [
      { stict: true },
      { secret_mode: 'ignore' },
      { system_messages: 'trust' },
      { tool_result_injection: 'allow' },
      { category_actions: { made_up: 'flag' } },
      { category_actions: { injection: 'allow' } },
      { allow_domains: ['not a domain'] },
      { allow_domains: Array.from({ length: 257 }, (_, i) => `d${i}.example`) },
      { allow_domains: ['a'.repeat(300) + '.com'] },
    ]) {
      const res = await put('acme', body);
      t.equal(res.status, 422, JSON.stringify(body).slice(0, 60));
    }
    t.same((await call(url('acme'), { headers: admin })).json<PolicyAnswer>().policy, {}, 'nothing was stored');
  });

  t.test('a change applies to the tenant\'s next request, and only to that tenant (no verdict shared through the cache)', async (t) => {
    t.equal((await filter(acme, SECRET_TEXT)).action, 'redact', 'default: a credential is redacted');
    t.equal((await filter(globex, SECRET_TEXT)).action, 'redact');
    const res = await put('acme', { secret_mode: 'block', allow_domains: ['acme.com'] });
    t.equal(res.status, 200);
    t.same(res.json<PolicyAnswer>().policy, { secret_mode: 'block', allow_domains: ['acme.com'] });
    t.equal(res.json<PolicyAnswer>().effective.secret_mode, 'block');
    t.equal((await filter(acme, SECRET_TEXT)).action, 'block', 'acme now blocks credentials');
    t.equal((await filter(globex, SECRET_TEXT)).action, 'redact', 'globex still redacts the very same text');
    t.equal((await put('acme', {})).status, 200, 'an empty policy resets to the defaults');
    t.equal((await filter(acme, SECRET_TEXT)).action, 'redact');
  });
});

t.test('without Redis, another replica picks a change up within BASTION_POLICY_CACHE_TTL_MS', async (t) => {
  const shared = { databaseUrl: sqliteUrl(t), config: { adminKey: ADMIN_KEY, policyCacheTtlMs: 300 } };
  const a = await startTestGateway(t, shared);
  const b = await startTestGateway(t, shared);
  const key = await a.key('initech', { rate: 1000 });
  const filterOnB = () => call(`${b.proxyUrl}/filter`, { headers: { 'x-api-key': key }, body: { content: SECRET_TEXT } }).then((r) => r.json<Verdict>());
  t.equal((await filterOnB()).action, 'redact', 'replica B cached the default policy');
  await call(`${a.adminUrl}/admin/tenants/initech/policy`, { method: 'PUT', headers: { 'x-admin-key': ADMIN_KEY }, body: { secret_mode: 'block' } });
  let action = '';
  for (let i = 0; i < 100 && action !== 'block'; i++) {
    await new Promise((r) => setTimeout(r, 100));
    action = (await filterOnB()).action;
  }
  t.equal(action, 'block', 'replica B applies the new policy once its cached copy expired');
});

t.test('with Redis, a change reaches another replica on its next request', await needs('redis'), async (t) => {
  // A long TTL: only the broadcast can explain replica B seeing the change at once.
  const shared = { databaseUrl: sqliteUrl(t), redis: true, redisPrefix: redisPrefix(), config: { adminKey: ADMIN_KEY, policyCacheTtlMs: 600_000 } };
  const a = await startTestGateway(t, shared);
  const b = await startTestGateway(t, shared);
  const key = await a.key('umbrella', { rate: 1000 });
  const filterOnB = () => call(`${b.proxyUrl}/filter`, { headers: { 'x-api-key': key }, body: { content: SECRET_TEXT } }).then((r) => r.json<Verdict>());
  t.equal((await filterOnB()).action, 'redact', 'replica B cached the default policy');
  const res = await call(`${a.adminUrl}/admin/tenants/umbrella/policy`, { method: 'PUT', headers: { 'x-admin-key': ADMIN_KEY }, body: { secret_mode: 'block' } });
  t.equal(res.status, 200);
  // Pub/sub delivery is asynchronous: allow the message a moment to arrive (far less than the TTL).
  let action = '';
  for (let i = 0; i < 50 && action !== 'block'; i++) {
    action = (await filterOnB()).action;
    if (action !== 'block') await new Promise((r) => setTimeout(r, 20));
  }
  t.equal(action, 'block', 'replica B dropped its cached policy when the change was broadcast');
});
