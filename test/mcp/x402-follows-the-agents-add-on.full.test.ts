import t from 'tap';
import { getPlan } from '../../src/config/plans.js';
import { databaseUrl, needs, type StorageBackend } from '../helpers/backends.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { ADMIN_KEY, MASTER_KEY } from '../helpers/portal.js';
import { codeOf, registeredAgent, resourceOf, toolCall, x402Header } from './helpers.js';

for (const backend of ['sqlite', 'postgres'] as StorageBackend[]) {
  t.test(`${backend}: paying follows the agents add-on; revoking never needs it`, backend === 'postgres' ? await needs('postgres') : {}, async (t) => {
    const gw = await startTestGateway(t, { databaseUrl: await databaseUrl(t, backend), config: { masterKey: MASTER_KEY, adminKey: ADMIN_KEY, mcpIpRatePerMinute: 100_000 } });
    const db = gw.services.storage.db;
    const spends = async (agentId: string) => (await db.selectFrom('agent_quotes').select('quote_id').where('agent_id', '=', agentId).execute()).length;
    const pay = async (agent: Awaited<ReturnType<typeof registeredAgent>>) =>
      toolCall(gw, 'filter', { content: 'hello' }, { 'payment-signature': await x402Header(agent.privateKey, { agent_id: agent.did, amount: '1', resource: resourceOf('filter') }) });
    // The operator's billing routes, as in production: they also tell every replica to drop cached entitlements.
    const billing = async (action: 'grant' | 'revoke', body: Record<string, string>) => {
      const res = await call(`${gw.adminUrl}/admin/billing/${action}`, { headers: { 'x-admin-key': ADMIN_KEY }, body });
      if (res.status !== 200) throw new Error(`billing ${action}: ${res.status} ${res.body}`);
    };

    t.test('an agent of a tenant whose add-on lapsed cannot pay: 402 naming the add-on, nothing charged', async (t) => {
      const agent = await registeredAgent(gw, 'lapsed');
      t.equal((await pay(agent)).status, 200, 'entitled: paid');
      t.equal(await spends(agent.agentId), 1);

      await billing('revoke', { tenant_id: 'lapsed', addon: 'agents' });
      const refused = await pay(agent);
      t.equal(refused.status, 402);
      t.equal(codeOf(refused), 'BASTION_ERR_AGENT_ADDON_LAPSED');
      t.match(refused.json(), { error: { reason: 'AGENT_ADDON_LAPSED' }, accepts: [{ scheme: 'bastion-did' }] }, 'the usual 402 body, its reason the lapsed add-on');
      t.equal(await spends(agent.agentId), 1, 'nothing charged');

      await billing('revoke', { tenant_id: 'lapsed', tier: 'professional' });
      t.equal(codeOf(await pay(agent)), 'BASTION_ERR_AGENT_ADDON_LAPSED', 'after a downgrade too');
      t.equal(await spends(agent.agentId), 1);

      await billing('grant', { tenant_id: 'lapsed', tier: 'professional', addon: 'agents' });
      t.equal((await pay(agent)).status, 200, 'bought again: pays again');
    });

    t.test('the owner revokes one agent or all of them whatever the plan', async (t) => {
      const a = await registeredAgent(gw, 'owner');
      const b = await registeredAgent(gw, 'owner');
      const headers = { 'x-api-key': a.key };
      await billing('revoke', { tenant_id: 'owner', tier: 'professional' });
      await billing('grant', { tenant_id: 'owner', tier: 'professional' });
      t.equal((await call(`${gw.adminUrl}/agents`, { headers })).status, 402, 'the tier again, without the add-on: listing is 402');
      const one = await call(`${gw.adminUrl}/agents/${a.agentId}`, { method: 'DELETE', headers });
      t.equal(one.status, 200, one.body);
      t.equal(one.json<{ status: string }>().status, 'revoked');
      await billing('revoke', { tenant_id: 'owner', tier: 'professional' });
      const all = await call(`${gw.adminUrl}/agents/revoke-all`, { method: 'POST', headers });
      t.equal(all.status, 200, all.body);
      t.same(all.json<{ agent_ids: string[] }>().agent_ids, [b.agentId]);
      t.equal((await call(`${gw.adminUrl}/agents`, { headers })).status, 403, 'listing still needs the plan');
      t.equal((await call(`${gw.adminUrl}/agents/${a.agentId}`, { method: 'DELETE', headers: { 'x-api-key': (await registeredAgent(gw, 'stranger')).key } })).status, 404, "another tenant's agent stays unknown");
    });

    t.test('x402 calls are paid per call and do not count against the monthly quota', async (t) => {
      const agent = await registeredAgent(gw, 'quota');
      const quota = getPlan('professional').monthlyQuota as number;
      await gw.services.quota.consume('quota', quota, quota);
      t.equal(await gw.services.quota.used('quota'), quota, 'the subscription quota is used up');
      const paid = await pay(agent);
      t.equal(paid.status, 200, 'the agent still pays for its call');
      t.equal(await gw.services.quota.used('quota'), quota, 'and the call is not counted');
      const keyed = await toolCall(gw, 'filter', { content: 'hello' }, { 'x-api-key': agent.key });
      t.equal(keyed.status, 429, "the tenant's own key is out of quota");
    });
  });
}
