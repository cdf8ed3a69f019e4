import t from 'tap';
import { needs, type StorageBackend } from '../helpers/backends.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { ADMIN_KEY, MASTER_KEY, account, bearer, errorCodeOf } from '../helpers/portal.js';

// config/plans.json: evolution needs startup, agents professional, tunnels enterprise; tiers free < startup < professional < enterprise.

for (const backend of ['sqlite', 'postgres'] as StorageBackend[]) {
  t.test(`${backend}: a tenant never holds an add-on its tier does not allow`, backend === 'postgres' ? await needs('postgres') : {}, async (t) => {
    const gw = await startTestGateway(t, { storage: backend, config: { adminKey: ADMIN_KEY, masterKey: MASTER_KEY } });
    const admin = (path: string, body: unknown) => call(`${gw.adminUrl}/admin/billing${path}`, { headers: { 'x-admin-key': ADMIN_KEY }, body });
    const stored = async (tenantId: string) => {
      const row = await gw.services.storage.db.selectFrom('tenants').select(['plan', 'addons']).where('id', '=', tenantId).executeTakeFirstOrThrow();
      return { plan: row.plan, addons: JSON.parse(row.addons) as string[] };
    };

    t.test('granting an add-on below its minimum tier is 409 with the reason, and changes nothing', async (t) => {
      const kim = await account(gw.adminUrl, `kim-${backend}@example.com`);
      const tenant_id = kim.tenant_id;
      await admin('/grant', { tenant_id, tier: 'startup' });

      const refused = await admin('/grant', { tenant_id, addon: 'agents' });
      t.equal(refused.status, 409, 'agents on startup (the reported defect)');
      t.equal(errorCodeOf(refused), 'BASTION_ERR_ADDON_TIER_TOO_LOW');
      t.match(refused.json(), { error: { addon: 'agents', min_tier: 'professional', current_tier: 'startup' } });
      t.match(refused.json<{ error: { message: string } }>().error.message, /"agents" needs plan professional/);
      t.same(await stored(tenant_id), { plan: 'startup', addons: [] });

      const together = await admin('/grant', { tenant_id, tier: 'free', addon: 'evolution' });
      t.equal(together.status, 409, 'the tier in the same request counts: evolution on free');
      t.match(together.json(), { error: { addon: 'evolution', min_tier: 'startup', current_tier: 'free' } });
      t.same(await stored(tenant_id), { plan: 'startup', addons: [] }, 'the tier part of a refused grant is not applied either');

      t.equal((await admin('/grant', { tenant_id, addon: 'tunnels', tier: 'professional' })).status, 409, 'tunnels need enterprise');
      const billing = await call(`${gw.adminUrl}/portal/billing`, { headers: bearer(kim.access) });
      t.match(billing.json(), { tier: 'startup', addons: [] });

      const ok = await admin('/grant', { tenant_id, tier: 'professional', addon: 'agents' });
      t.equal(ok.status, 200, 'tier and add-on granted together');
      t.same(ok.json(), { tenant_id, tier: 'professional', addons: ['agents'] });
    });

    t.test('a downgrade or a revoked tier removes the add-ons that lapse and reports them', async (t) => {
      const lee = await account(gw.adminUrl, `lee-${backend}@example.com`);
      const tenant_id = lee.tenant_id;
      await admin('/grant', { tenant_id, tier: 'professional', addon: 'agents' });
      await admin('/grant', { tenant_id, addon: 'evolution' });

      const down = await admin('/grant', { tenant_id, tier: 'startup' });
      t.equal(down.status, 200);
      t.same(down.json(), { tenant_id, tier: 'startup', addons: ['evolution'], lapsed_addons: ['agents'] });
      t.same(await stored(tenant_id), { plan: 'startup', addons: ['evolution'] });
      t.match((await call(`${gw.adminUrl}/portal/billing`, { headers: bearer(lee.access) })).json(), { tier: 'startup', addons: ['evolution'] });

      const notCurrent = await admin('/revoke', { tenant_id, tier: 'professional' });
      t.same(notCurrent.json(), { tenant_id, tier: 'startup', addons: ['evolution'] }, 'revoking a tier the tenant does not have lapses nothing');

      const revoked = await admin('/revoke', { tenant_id, tier: 'startup' });
      t.same(revoked.json(), { tenant_id, tier: 'free', addons: [], lapsed_addons: ['evolution'] }, 'the issue\'s case: no free tenant with add-ons');
      t.same(await stored(tenant_id), { plan: 'free', addons: [] });

      await admin('/grant', { tenant_id, tier: 'professional', addon: 'agents' });
      const both = await admin('/revoke', { tenant_id, tier: 'professional', addon: 'agents' });
      t.same(both.json(), { tenant_id, tier: 'free', addons: [] }, 'an add-on revoked explicitly is not reported as lapsed');
    });

    t.test('a grant racing a tier revocation never leaves an add-on above the tier', async (t) => {
      const { tenant_id } = await account(gw.adminUrl, `race-${backend}@example.com`);
      const outcomes = new Set<number>();
      for (let round = 0; round < 8; round++) {
        await admin('/revoke', { tenant_id, addon: 'agents' });
        await admin('/grant', { tenant_id, tier: 'professional' });
        const [grant, revoke] = await Promise.all([admin('/grant', { tenant_id, addon: 'agents' }), admin('/revoke', { tenant_id, tier: 'professional' })]);
        outcomes.add(grant.status);
        t.equal(revoke.status, 200);
        t.same(await stored(tenant_id), { plan: 'free', addons: [] }, `round ${round}: either the grant came first and lapsed, or it was refused`);
      }
      t.ok([...outcomes].every((s) => s === 200 || s === 409), 'the grant is answered 200 or 409, never 5xx');
    });
  });
}
