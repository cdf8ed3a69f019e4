import { decodePaymentRequiredHeader } from '@x402/core/http';
import { parsePaymentRequired } from '@x402/core/schemas';
import t from 'tap';
import { databaseUrl, needs, type StorageBackend } from '../helpers/backends.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { MASTER_KEY } from '../helpers/portal.js';
import { verifyActivityLog } from '../../src/storage/agent-activity.js';
import { agentKeys } from '../agents/helpers.js';
import { codeOf, registeredAgent, resourceOf, resultOf, toolCall, x402Header } from './helpers.js';

const TOKEN = 'ghp_' + 'Zq8rT2vLm9XwY4nB6cD1eF7gH3jK5pQ0sU2w';
const SECRET_TEXT = `ok i set GITHUB_TOKEN=${TOKEN} but it fails`;

for (const backend of ['sqlite', 'postgres'] as StorageBackend[]) {
  t.test(`${backend}: x402 paid MCP calls`, backend === 'postgres' ? await needs('postgres') : {}, async (t) => {
    const gw = await startTestGateway(t, { databaseUrl: await databaseUrl(t, backend), config: { masterKey: MASTER_KEY, mcpIpRatePerMinute: 100_000 } });
    const db = gw.services.storage.db;
    const spends = async (agentId: string) => db.selectFrom('agent_quotes').selectAll().where('agent_id', '=', agentId).where('used_at', 'is not', null).execute();
    const activity = async (key: string, agentId: string) =>
      (await call(`${gw.adminUrl}/agents/activity?agent_id=${agentId}`, { headers: { 'x-api-key': key } })).json<{ kind: string; detail: Record<string, unknown> }[]>();

    t.test('no credential: 402 naming what to buy, in x402 v2 PaymentRequired shape', async (t) => {
      const res = await toolCall(gw, 'filter', { content: 'hello' });
      t.equal(res.status, 402);
      const body = res.json<{ error: { code: string; reason: string; tool: string }; x402Version: number; resource: { url: string }; accepts: Record<string, unknown>[] }>();
      t.equal(body.error.code, 'BASTION_ERR_PAYMENT_REQUIRED');
      t.equal(body.x402Version, 2);
      t.equal(body.resource.url, resourceOf('filter'));
      t.match(body.accepts[0], { scheme: 'bastion-did', network: 'bastion:ledger', asset: 'USD', amount: '1', payTo: 'bastion:tools', maxTimeoutSeconds: 300, extra: { item: 'tool:filter', amount_decimal: '0.01' } });
      const header = decodePaymentRequiredHeader(res.headers['payment-required']);
      t.ok(parsePaymentRequired(header).success, "the PAYMENT-REQUIRED header parses with @x402/core's own schema");
      t.same(header.accepts, body.accepts);
      t.notOk(res.headers['www-authenticate'], 'no Lightning node configured: x402 only');
      const assess = await toolCall(gw, 'assess', { text: 'x' });
      t.match(assess.json(), { accepts: [{ amount: '5', extra: { item: 'tool:assess' } }] }, 'each tool has its catalogue price');
    });

    t.test('discovery is free; a paid call with a valid proof runs and is charged once', async (t) => {
      const list = await call(`${gw.proxyUrl}/mcp`, { headers: { accept: 'application/json, text/event-stream' }, body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
      t.equal(list.status, 200);
      t.same(list.json<{ result: { tools: { name: string }[] } }>().result.tools.map((x) => x.name).sort(), ['assess', 'filter', 'redact']);

      const agent = await registeredAgent(gw, 'acme');
      const proof = await x402Header(agent.privateKey, { agent_id: agent.did, amount: '2', resource: resourceOf('redact') });
      const res = await toolCall(gw, 'redact', { content: SECRET_TEXT }, { 'payment-signature': proof });
      t.equal(res.status, 200, res.body);
      const result = resultOf<{ action: string; redacted_content: string }>(res);
      t.equal(result.action, 'redact');
      t.equal(result.redacted_content, 'ok i set GITHUB_TOKEN=[REDACTED:github_token] but it fails');
      const spent = await spends(agent.agentId);
      t.equal(spent.length, 1);
      t.equal(Number(spent[0].amount), 2, 'the catalogue price is charged (0.02 USD), not more');
      const log = await activity(agent.key, agent.agentId);
      t.match(log[0], { kind: 'mcp.paid', detail: { tool: 'redact', scheme: 'x402', amount: '0.02', currency: 'USD' } });
      t.notMatch(JSON.stringify(log), /ghp_|GITHUB|signature/, 'the activity log holds metadata only');
      t.notMatch(gw.logs.text, /ghp_|GITHUB_TOKEN/, 'no content in the logs');
    });

    t.test('every forgery is refused with its reason, and nothing is charged', async (t) => {
      const agent = await registeredAgent(gw, 'forged');
      const stranger = agentKeys();
      const base = { agent_id: agent.did, amount: '1', resource: resourceOf('filter') };
      const cases: [string, () => Promise<string>, string][] = [
        ['signed by another key', async () => x402Header(stranger.privateKey, base), 'BASTION_ERR_X402_SIGNATURE_INVALID'],
        ['field changed after signing', async () => x402Header(agent.privateKey, base, { amount: '100' }), 'BASTION_ERR_X402_SIGNATURE_INVALID'],
        ['stale issued_at (6 minutes ago)', async () => x402Header(agent.privateKey, { ...base, issued_at: new Date(Date.now() - 6 * 60_000).toISOString() }), 'BASTION_ERR_X402_STALE'],
        ['issued_at in the future', async () => x402Header(agent.privateKey, { ...base, issued_at: new Date(Date.now() + 6 * 60_000).toISOString() }), 'BASTION_ERR_X402_STALE'],
        ['amount below the price', async () => x402Header(agent.privateKey, { ...base, amount: '0' }), 'BASTION_ERR_X402_AMOUNT_INSUFFICIENT'],
        ['proof for another tool', async () => x402Header(agent.privateKey, { ...base, resource: resourceOf('assess') }), 'BASTION_ERR_X402_RESOURCE_MISMATCH'],
        ['unregistered did:key', async () => x402Header(stranger.privateKey, { ...base, agent_id: stranger.did }), 'BASTION_ERR_X402_AGENT_UNKNOWN'],
      ];
      for (const [name, proof, code] of cases) {
        const res = await toolCall(gw, 'filter', { content: 'hello' }, { 'payment-signature': await proof() });
        t.equal(res.status, 402, name);
        t.equal(codeOf(res), code, name);
        t.ok(res.json<{ accepts: unknown[] }>().accepts.length > 0, `${name}: still names what to buy`);
      }
      t.equal((await spends(agent.agentId)).length, 0);
    });

    t.test('a replayed nonce is refused; 20 concurrent uses of one nonce charge exactly once', async (t) => {
      const agent = await registeredAgent(gw, 'replay', { daily: '5.00' });
      const proof = await x402Header(agent.privateKey, { agent_id: agent.did, amount: '1', resource: resourceOf('filter') });
      const replies = await Promise.all(Array.from({ length: 20 }, () => toolCall(gw, 'filter', { content: 'hello' }, { 'payment-signature': proof })));
      t.same(replies.map((r) => r.status).sort(), [200, ...Array(19).fill(402)]);
      t.ok(replies.filter((r) => r.status === 402).every((r) => codeOf(r) === 'BASTION_ERR_X402_REPLAYED'));
      t.equal((await spends(agent.agentId)).length, 1, 'one spend record');
      const again = await toolCall(gw, 'filter', { content: 'hello' }, { 'payment-signature': proof });
      t.equal(codeOf(again), 'BASTION_ERR_X402_REPLAYED');
      const log = await activity(agent.key, agent.agentId);
      t.equal(log.filter((r) => r.kind === 'mcp.paid').length, 1);
      t.match(await verifyActivityLog(gw.services.storage, 'replay'), { intact: true, records: 22 }, 'registration, 1 paid, 20 refused: one gapless chain');
    });

    t.test('headers that cannot be decoded are 422', async (t) => {
      const agent = await registeredAgent(gw, 'garbled');
      for (const [name, header] of [
        ['not base64', '%%%not-base64%%%'],
        ['base64 of not JSON', Buffer.from('hello').toString('base64')],
        ['missing nonce', Buffer.from(JSON.stringify({ agent_id: agent.did, issued_at: new Date().toISOString(), amount: '1', resource: resourceOf('filter'), signature: 'a.b.c' })).toString('base64')],
        ['agent_id not a did:key', await x402Header(agent.privateKey, { agent_id: 'did:web:example.com', amount: '1', resource: resourceOf('filter') })],
      ]) {
        const res = await toolCall(gw, 'filter', { content: 'hello' }, { 'payment-signature': header });
        t.equal(res.status, 422, name);
        t.ok(Array.isArray(res.json<{ detail: unknown[] }>().detail), `${name}: validation-error shape`);
      }
      const both = await toolCall(gw, 'filter', { content: 'hello' }, { 'payment-signature': 'x', 'x-api-key': 'y' });
      t.equal(both.status, 422, 'two credentials at once are refused');
      const badArgs = await toolCall(gw, 'filter', { content: 42 }, { 'payment-signature': await x402Header(agent.privateKey, { agent_id: agent.did, amount: '1', resource: resourceOf('filter') }) });
      t.equal(badArgs.status, 422, 'arguments are checked before anything is charged');
      t.equal((await spends(agent.agentId)).length, 0);
    });

    t.test('a revoked agent or one over its limits gets 402 naming the limit', async (t) => {
      const agent = await registeredAgent(gw, 'limited', { per_transaction: '0.01', daily: '0.02', monthly: '1.00' });
      const pay = async (tool = 'filter', amount = '1') => toolCall(gw, tool, tool === 'assess' ? { text: 'hi' } : { content: 'hi' }, { 'payment-signature': await x402Header(agent.privateKey, { agent_id: agent.did, amount, resource: resourceOf(tool) }) });
      t.equal((await pay()).status, 200);
      t.equal((await pay()).status, 200);
      const over = await pay();
      t.equal(over.status, 402);
      t.match(over.json(), { error: { code: 'BASTION_ERR_LIMIT_DAILY', limit: 'daily' } });
      const payee = await registeredAgent(gw, 'payee', { allowed_payees: ['bastion:reports'] });
      const refused = await toolCall(gw, 'filter', { content: 'hi' }, { 'payment-signature': await x402Header(payee.privateKey, { agent_id: payee.did, amount: '1', resource: resourceOf('filter') }) });
      t.match(refused.json(), { error: { code: 'BASTION_ERR_PAYEE_NOT_ALLOWED', limit: 'allowed_payees' } });

      t.equal((await call(`${gw.adminUrl}/agents/${agent.agentId}`, { method: 'DELETE', headers: { 'x-api-key': agent.key } })).status, 200);
      const revoked = await pay();
      t.equal(revoked.status, 402);
      t.equal(codeOf(revoked), 'BASTION_ERR_AGENT_REVOKED');
      const log = await activity(agent.key, agent.agentId);
      t.same(log.filter((r) => r.kind === 'mcp.payment_refused').map((r) => r.detail.reason), ['AGENT_REVOKED', 'LIMIT_DAILY']);
    });

    t.test('the data-plane OpenAPI document lists /mcp with its three credentials and its 402', async (t) => {
      const doc = (await call(`${gw.proxyUrl}/openapi.json`)).json<{ paths: Record<string, { post: { security: unknown[]; responses: Record<string, unknown> } }>; components: { securitySchemes: Record<string, { name?: string; scheme?: string }> } }>();
      t.same(doc.paths['/mcp'].post.security, [{ apiKey: [] }, { x402: [] }, { l402: [] }]);
      t.ok(doc.paths['/mcp'].post.responses['402']);
      t.equal(doc.components.securitySchemes.x402.name, 'PAYMENT-SIGNATURE');
      t.equal(doc.components.securitySchemes.l402.scheme, 'L402');
    });

    t.test('an API key still works without payment, metered like /filter', async (t) => {
      const key = await gw.key('keyed', { rate: 1000, plan: 'free' });
      const res = await toolCall(gw, 'filter', { content: 'hello' }, { 'x-api-key': key });
      t.equal(res.status, 200, res.body);
      t.equal(resultOf<{ allowed: boolean }>(res).allowed, true);
      t.match(res.headers['ratelimit-policy'], /requests-per-month/);
      const wrong = await toolCall(gw, 'filter', { content: 'hello' }, { 'x-api-key': 'bst_wrong' });
      t.equal(wrong.status, 401);
      t.equal((await toolCall(gw, 'filter', { content: 'hello', extra: true }, { 'x-api-key': key })).status, 422, 'arguments are checked before the quota is counted');
    });
  });
}
