import t from 'tap';
import { databaseUrl, needs, type StorageBackend } from '../helpers/backends.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { MASTER_KEY, errorCodeOf } from '../helpers/portal.js';
import { codeOf, resourceOf, toolCall, x402Header } from '../mcp/helpers.js';
import { agentKeys, challengeFor, entitledKey, limits, registerAgent, signRegistration } from './helpers.js';

for (const backend of ['sqlite', 'postgres'] as StorageBackend[]) {
  t.test(`${backend}: an agent's did:key is registered only by whoever holds its key, once across the gateway`, backend === 'postgres' ? await needs('postgres') : {}, async (t) => {
    const gw = await startTestGateway(t, { databaseUrl: await databaseUrl(t, backend), config: { masterKey: MASTER_KEY, mcpIpRatePerMinute: 100_000 } });
    const acme = { 'x-api-key': await entitledKey(gw, 'acme') };
    const globex = { 'x-api-key': await entitledKey(gw, 'globex') };
    const agents = `${gw.adminUrl}/agents`;
    const body = (did: string) => ({ display_name: 'bot', did, limits: limits() });

    t.test('without a proof, or with a proof by another key, another tenant or a used challenge: refused', async (t) => {
      const victim = agentKeys();
      const bare = await call(agents, { headers: acme, body: body(victim.did) });
      t.equal(bare.status, 422, 'a registration without proof is incomplete');

      const { challenge, tenant_id } = await challengeFor(gw.adminUrl, acme, victim.did);
      t.equal(tenant_id, 'acme');
      const forged = await signRegistration(agentKeys().privateKey, { challenge, did: victim.did, tenant_id });
      const byOther = await call(agents, { headers: acme, body: { ...body(victim.did), proof: { challenge, signature: forged } } });
      t.equal(byOther.status, 403);
      t.equal(errorCodeOf(byOther), 'BASTION_ERR_AGENT_PROOF_INVALID', 'a signature by a key the DID does not encode');

      // globex replays acme's challenge with a genuine signature (the agent signed for acme): bound to acme.
      const signed = await signRegistration(victim.privateKey, { challenge, did: victim.did, tenant_id: 'acme' });
      const stolen = await call(agents, { headers: globex, body: { ...body(victim.did), proof: { challenge, signature: signed } } });
      t.equal(errorCodeOf(stolen), 'BASTION_ERR_AGENT_PROOF_INVALID', "another tenant cannot use acme's challenge");

      const ok = await call(agents, { headers: acme, body: { ...body(victim.did), proof: { challenge, signature: signed } } });
      t.equal(ok.status, 201, ok.body);
      const again = await call(agents, { headers: acme, body: { ...body(agentKeys().did), proof: { challenge, signature: signed } } });
      t.equal(errorCodeOf(again), 'BASTION_ERR_AGENT_PROOF_INVALID', 'a challenge is single-use');
      t.equal((await call(`${agents}/challenge`, { headers: acme, body: { did: 'did:key:nope' } })).status, 422);
    });

    t.test('one ACTIVE agent per DID across tenants: 409, free again once revoked', async (t) => {
      const keys = agentKeys();
      const first = await registerAgent(gw.adminUrl, acme, body(keys.did), keys.privateKey);
      t.equal(first.status, 201);
      const second = await registerAgent(gw.adminUrl, globex, body(keys.did), keys.privateKey);
      t.equal(second.status, 409);
      t.equal(errorCodeOf(second), 'BASTION_ERR_AGENT_DID_TAKEN');
      const same = await registerAgent(gw.adminUrl, acme, body(keys.did), keys.privateKey);
      t.equal(errorCodeOf(same), 'BASTION_ERR_AGENT_DID_TAKEN', 'also within the tenant');

      const agent = await registeredAgentPays(keys, first.json<{ agent_id: string }>().agent_id);
      t.equal(agent, 200, 'the real agent still pays');
      await call(`${agents}/${first.json<{ agent_id: string }>().agent_id}`, { method: 'DELETE', headers: acme });
      const moved = await registerAgent(gw.adminUrl, globex, body(keys.did), keys.privateKey);
      t.equal(moved.status, 201, 'after revocation the key holder may register it elsewhere');
    });

    t.test('concurrent registrations of one DID by eight tenants: exactly one wins', async (t) => {
      const keys = agentKeys();
      const tenants = await Promise.all(Array.from({ length: 8 }, async (_, i) => ({ 'x-api-key': await entitledKey(gw, `race${i}`) })));
      const proofs = await Promise.all(tenants.map(async (h) => {
        const { challenge, tenant_id } = await challengeFor(gw.adminUrl, h, keys.did);
        return { challenge, signature: await signRegistration(keys.privateKey, { challenge, did: keys.did, tenant_id }) };
      }));
      const replies = await Promise.all(tenants.map((h, i) => call(agents, { headers: h, body: { ...body(keys.did), proof: proofs[i] } })));
      t.same(replies.map((r) => r.status).sort(), [201, 409, 409, 409, 409, 409, 409, 409], replies.map((r) => r.body).join('\n'));
      const active = await gw.services.storage.db.selectFrom('agents').select('agent_id').where('did', '=', keys.did).where('status', '=', 'active').execute();
      t.equal(active.length, 1, 'the database holds one active row');
    });

    t.test('the payer is the one active row, however many revoked rows share its DID', async (t) => {
      const keys = agentKeys();
      const res = await registerAgent(gw.adminUrl, acme, body(keys.did), keys.privateKey);
      const agentId = res.json<{ agent_id: string }>().agent_id;
      const db = gw.services.storage.db;
      const row = await db.selectFrom('agents').selectAll().where('agent_id', '=', agentId).executeTakeFirstOrThrow();
      // History newer than the active row: 60 revoked registrations (as register-and-revoke cycles elsewhere leave).
      for (let i = 0; i < 60; i++) {
        await db.insertInto('agents').values({ ...row, agent_id: `agt_${String(i).padStart(22, 'x')}`, tenant_id: 'globex', status: 'revoked', created_at: Number(row.created_at) + 1000 + i, revoked_at: Number(row.created_at) + 2000 }).execute();
      }
      t.equal(await registeredAgentPays(keys, agentId), 200);
    });

    async function registeredAgentPays(keys: ReturnType<typeof agentKeys>, _agentId: string): Promise<number> {
      const proof = await x402Header(keys.privateKey, { agent_id: keys.did, amount: '1', resource: resourceOf('filter') });
      const res = await toolCall(gw, 'filter', { content: 'hello' }, { 'payment-signature': proof });
      if (res.status !== 200) t.comment(`payment refused: ${codeOf(res)}`);
      return res.status;
    }
  });
}
