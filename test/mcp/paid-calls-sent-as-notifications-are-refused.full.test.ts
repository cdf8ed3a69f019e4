import t from 'tap';
import { databaseUrl, needs, type StorageBackend } from '../helpers/backends.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { MASTER_KEY } from '../helpers/portal.js';
import { registeredAgent, resourceOf, resultOf, toolCall, x402Header } from './helpers.js';

for (const backend of ['sqlite', 'postgres'] as StorageBackend[]) {
  t.test(`${backend}: a tools/call without an id (a JSON-RPC notification) is refused before any charge`, backend === 'postgres' ? await needs('postgres') : {}, async (t) => {
    const gw = await startTestGateway(t, { databaseUrl: await databaseUrl(t, backend), config: { masterKey: MASTER_KEY, mcpIpRatePerMinute: 100_000 } });
    const db = gw.services.storage.db;
    const agent = await registeredAgent(gw, 'notify');
    const notification = (headers: Record<string, string>) =>
      call(`${gw.proxyUrl}/mcp`, { headers: { accept: 'application/json, text/event-stream', ...headers }, body: { jsonrpc: '2.0', method: 'tools/call', params: { name: 'filter', arguments: { content: 'hello' } } } });
    const spends = async () => (await db.selectFrom('agent_quotes').select('quote_id').where('agent_id', '=', agent.agentId).execute()).length;
    const nonces = async () => (await db.selectFrom('payment_nonces').select('replay_key').execute()).length;

    const proof = await x402Header(agent.privateKey, { agent_id: agent.did, amount: '1', resource: resourceOf('filter') });
    const refused = await notification({ 'payment-signature': proof });
    t.equal(refused.status, 422, 'the client sees an error, not a 202 for a call that never runs');
    t.match(refused.json(), { detail: [{ loc: ['body', 'id'] }] });
    t.equal(await spends(), 0, 'nothing charged');
    t.equal(await nonces(), 0, 'the nonce was not consumed');

    const ok = await toolCall(gw, 'filter', { content: 'hello' }, { 'payment-signature': proof });
    t.equal(ok.status, 200, 'the same proof still pays for the call once it has an id');
    t.equal(resultOf<{ allowed: boolean }>(ok).allowed, true);
    t.equal(await spends(), 1);

    const key = await gw.key('keyed', { rate: 1000, plan: 'free' });
    const keyed = await notification({ 'x-api-key': key });
    t.equal(keyed.status, 422, 'with an API key too: the monthly quota is not counted for a call that would never run');
    const after = await toolCall(gw, 'filter', { content: 'hello' }, { 'x-api-key': key });
    t.match(after.headers.ratelimit, /"requests-per-month";r=(\d+)/);
    const fresh = await gw.key('fresh', { rate: 1000, plan: 'free' });
    const baseline = await toolCall(gw, 'filter', { content: 'hello' }, { 'x-api-key': fresh });
    const remaining = (h: string) => Number(/"requests-per-month";r=(\d+)/.exec(h)![1]);
    t.equal(remaining(after.headers.ratelimit), remaining(baseline.headers.ratelimit), 'one counted call each: the notification counted nothing');

    const nullId = await call(`${gw.proxyUrl}/mcp`, { headers: { accept: 'application/json, text/event-stream', 'payment-signature': await x402Header(agent.privateKey, { agent_id: agent.did, amount: '1', resource: resourceOf('filter') }) }, body: { jsonrpc: '2.0', id: null, method: 'tools/call', params: { name: 'filter', arguments: { content: 'hello' } } } });
    t.equal(nullId.status, 422, '"id": null is no id either');
    t.equal(await spends(), 1, 'still one charge');

    const unpaid = await notification({});
    t.equal(unpaid.status, 422, 'without a credential: refused the same way, no Lightning invoice is minted for it');
  });
}
