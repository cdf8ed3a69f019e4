import t from 'tap';
import { decoratePortalAuth } from '../../src/admin/portal/context.js';
import { requireBearer } from '../../src/admin/portal/bearer.js';
import { applyRouteEntitlements } from '../../src/admin/entitlements.js';
import { routeRequirements } from '../../src/config/plans.js';
import { createHttpApp } from '../../src/http/create-app.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { policies } from '../helpers/ratelimit.js';
import { ADMIN_KEY, MASTER_KEY, account, bearer, errorCodeOf } from '../helpers/portal.js';

t.test('operator grants and revocations change plan, add-ons and their 402/403 outcomes at once', async (t) => {
  const gw = await startTestGateway(t, { config: { adminKey: ADMIN_KEY, masterKey: MASTER_KEY } });
  const kim = await account(gw.adminUrl, 'kim@example.com');
  const admin = (path: string, body: unknown, key = ADMIN_KEY) => call(`${gw.adminUrl}/admin/billing${path}`, { headers: { 'x-admin-key': key }, body });

  // GET /agents does not exist yet; config/plans.json already says it needs the `agents` add-on. A listener that
  // registers it gets the guard from the config, with the real bearer authentication and the real storage.
  const future = createHttpApp({ logger: gw.services.logger, bodyLimit: 65536, trustProxy: false });
  future.decorate('services', gw.services);
  decoratePortalAuth(future, gw.services);
  applyRouteEntitlements(future);
  await future.register(async (scope) => {
    scope.addHook('onRequest', requireBearer);
    scope.get('/agents', { config: { security: 'bearer' } }, async () => ({ agents: [] }));
  });
  await future.listen({ host: '127.0.0.1', port: 0 });
  t.teardown(() => future.close());
  const agents = () => call(`http://127.0.0.1:${(future.server.address() as { port: number }).port}/agents`, { headers: bearer(kim.access) });

  t.test('GET /portal/billing describes the plan, the month and the add-ons', async (t) => {
    const res = await call(`${gw.adminUrl}/portal/billing`, { headers: bearer(kim.access) });
    t.equal(res.status, 200);
    const billing = res.json<Record<string, unknown>>();
    t.match(billing, { tenant_id: kim.tenant_id, tier: 'free', monthly_quota: 1000, used: 0, remaining: 1000, max_rate_per_minute: 60, addons: [] });
    t.ok(Date.parse(billing.period_end as string) > Date.now());
    t.match(billing.available_addons, [{ name: 'evolution', purchased: false, eligible: false }, { name: 'agents' }, { name: 'tunnels' }]);
  });

  t.test('operator routes need the admin key, never an API key', async (t) => {
    const apiKey = await gw.key(kim.tenant_id);
    for (const headers of [{}, { 'x-admin-key': 'wrong-admin-key-0123456789' }, { 'x-api-key': apiKey }] as Record<string, string>[]) {
      const res = await call(`${gw.adminUrl}/admin/billing/grant`, { headers, body: { tenant_id: kim.tenant_id, tier: 'enterprise' } });
      t.equal(res.status, 401);
      t.equal(errorCodeOf(res), 'BASTION_ERR_ADMIN_UNAUTHENTICATED');
    }
    t.equal((await admin('/grant', { tenant_id: 'nobody', tier: 'startup' })).status, 404);
    t.equal((await admin('/grant', { tenant_id: kim.tenant_id })).status, 422, 'tier or addon is required');
    t.equal((await admin('/grant', { tenant_id: kim.tenant_id, tier: 'platinum' })).status, 422);
    t.equal((await admin('/grant', { tenant_id: kim.tenant_id, addon: 'coffee' })).status, 422);
  });

  t.test('403 below the tier, 402 naming the add-on when eligible, 200 once bought', async (t) => {
    const low = await agents();
    t.equal(low.status, 403, 'free is below the agents add-on tier (professional)');
    t.match(low.json(), { error: { code: 'BASTION_ERR_PLAN_TOO_LOW', required_tier: 'professional' } });

    t.same((await admin('/grant', { tenant_id: kim.tenant_id, tier: 'professional' })).json(), { tenant_id: kim.tenant_id, tier: 'professional', addons: [] });
    const unpaid = await agents();
    t.equal(unpaid.status, 402);
    t.match(unpaid.json(), { error: { code: 'BASTION_ERR_ADDON_REQUIRED', addon: 'agents' } });
    t.match(unpaid.json<{ error: { message: string } }>().error.message, /"agents" add-on/);

    t.same((await admin('/grant', { tenant_id: kim.tenant_id, addon: 'agents' })).json(), { tenant_id: kim.tenant_id, tier: 'professional', addons: ['agents'] });
    t.equal((await agents()).status, 200);
    t.match((await call(`${gw.adminUrl}/portal/billing`, { headers: bearer(kim.access) })).json(), { tier: 'professional', addons: ['agents'], monthly_quota: 1_000_000 });

    t.same((await admin('/revoke', { tenant_id: kim.tenant_id, addon: 'agents' })).json(), { tenant_id: kim.tenant_id, tier: 'professional', addons: [] });
    t.equal((await agents()).status, 402, 'revoked at once');
    t.same((await admin('/revoke', { tenant_id: kim.tenant_id, tier: 'startup' })).json().tier, 'professional', 'revoking a tier that is not current changes nothing');
    t.equal((await admin('/revoke', { tenant_id: kim.tenant_id, tier: 'professional' })).json().tier, 'free', 'revoking the current tier drops to the default plan');
    t.equal((await agents()).status, 403);
  });

  t.test('the data plane sees a plan change on its next request (tenant_changed)', async (t) => {
    const key = await gw.key(kim.tenant_id);
    const before = await call(`${gw.proxyUrl}/health`, { headers: { 'x-api-key': key } });
    t.same(policies(before.headers['ratelimit-policy']).get('requests-per-month')?.q, 1000);
    await admin('/grant', { tenant_id: kim.tenant_id, tier: 'startup' });
    const after = await call(`${gw.proxyUrl}/health`, { headers: { 'x-api-key': key } });
    t.same(policies(after.headers['ratelimit-policy']).get('requests-per-month')?.q, 100_000);
  });

  t.test('every route requirement in config/plans.json names a real tier and add-on', async (t) => {
    const requirements = routeRequirements();
    t.ok(requirements['GET /portal/stats/flags']);
    t.ok(Object.keys(requirements).length >= 10, 'agent and tunnel routes are declared ahead');
  });
});
