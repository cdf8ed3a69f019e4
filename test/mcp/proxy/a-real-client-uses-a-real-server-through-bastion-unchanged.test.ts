import t from 'tap';
import { z } from 'zod';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { call } from '../../helpers/http.js';
import { agent, proxyGateway, register, startUpstreamMcp } from './helpers.js';

t.test('an SDK client lists, calls, gets progress, cancels and ends sessions through /mcp/servers/{name}', async (t) => {
  const cancelled: string[] = [];
  const upstream = await startUpstreamMcp(t, (server) => {
    server.registerTool('add', { description: 'Adds two numbers.', inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }));
    server.registerTool('count', { description: 'Counts to n, reporting progress.', inputSchema: { n: z.number() } }, async ({ n }, extra) => {
      for (let i = 1; i <= n; i++) {
        await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: extra._meta!.progressToken!, progress: i, total: n } });
      }
      return { content: [{ type: 'text', text: `counted to ${n}` }] };
    });
    server.registerTool('wait', { description: 'Waits until cancelled.', inputSchema: { label: z.string() } }, async ({ label }, extra) => {
      await new Promise<void>((resolve) => extra.signal.addEventListener('abort', () => resolve()));
      cancelled.push(label);
      return { content: [{ type: 'text', text: 'never seen' }] };
    });
  });
  const gw = await proxyGateway(t);
  const key = await gw.key('acme', { rate: 10_000 });
  await register(gw, key, 'calc', { url: upstream.url, credential: 'Bearer upstream-secret' });

  const a = await agent(gw, key, 'calc');
  const b = await agent(gw, key, 'calc');
  t.teardown(() => Promise.all([a.client.close(), b.client.close()]));

  t.test('list and call as with the server itself; the credential is the gateway\'s', async (t) => {
    const { tools } = await a.client.listTools();
    t.same(tools.map((x) => x.name).sort(), ['add', 'count', 'wait']);
    const result = await a.client.callTool({ name: 'add', arguments: { a: 2, b: 40 } });
    t.same(result.content, [{ type: 'text', text: '42' }]);
    t.ok(upstream.seen.every((s) => s.authorization === 'Bearer upstream-secret'), 'every upstream request carries the registered credential');
    t.notOk(upstream.seen.some((s) => s.authorization?.includes(key)), 'the Bastion key never reaches the upstream');
  });

  t.test('progress notifications are relayed as they come', async (t) => {
    const progress: number[] = [];
    const result = await a.client.callTool({ name: 'count', arguments: { n: 5 } }, undefined, { onprogress: (p) => void progress.push(p.progress) });
    t.same(progress, [1, 2, 3, 4, 5]);
    t.same(result.content, [{ type: 'text', text: 'counted to 5' }]);
  });

  t.test('cancellation reaches the server', async (t) => {
    const controller = new AbortController();
    const pending = a.client.callTool({ name: 'wait', arguments: { label: 'one' } }, undefined, { signal: controller.signal });
    setTimeout(() => controller.abort('changed my mind'), 200);
    await t.rejects(pending);
    for (let i = 0; i < 50 && cancelled.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    t.same(cancelled, ['one'], 'the server saw notifications/cancelled and stopped the tool');
  });

  t.test('two concurrent sessions keep their own session ids and answers', async (t) => {
    t.not(a.transport.sessionId, b.transport.sessionId);
    t.notMatch(a.transport.sessionId!, /^[0-9a-f-]{36}$/, 'the agent sees a bound session id, not the upstream one');
    const [x, y] = await Promise.all([a.client.callTool({ name: 'add', arguments: { a: 1, b: 1 } }), b.client.callTool({ name: 'add', arguments: { a: 5, b: 5 } })]);
    t.same([x.content, y.content], [[{ type: 'text', text: '2' }], [{ type: 'text', text: '10' }]]);
  });

  t.test("another tenant's key cannot ride a session", async (t) => {
    const other = await gw.key('globex', { rate: 100 });
    await register(gw, other, 'calc', { url: upstream.url });
    const reply = await call(`${gw.proxyUrl}/mcp/servers/calc`, {
      headers: { 'x-api-key': other, accept: 'application/json, text/event-stream', 'mcp-session-id': a.transport.sessionId! },
      body: { jsonrpc: '2.0', id: 9, method: 'tools/list' },
    });
    t.equal(reply.status, 404);
    t.equal(reply.json<{ error: { code: string } }>().error.code, 'BASTION_ERR_MCP_SESSION_NOT_FOUND');
  });

  t.test('DELETE ends the session upstream', async (t) => {
    await b.transport.terminateSession();
    t.ok(upstream.seen.some((s) => s.http === 'DELETE'), 'the upstream saw the DELETE');
    const reply = await call(`${gw.proxyUrl}/mcp/servers/calc`, {
      headers: { 'x-api-key': key, accept: 'application/json, text/event-stream', 'mcp-session-id': b.transport.sessionId ?? '' },
      body: { jsonrpc: '2.0', id: 3, method: 'tools/list' },
    });
    t.equal(reply.status, 404, 'the ended session is gone');
  });

  t.test('an unknown server name and a missing key are refused', async (t) => {
    const unknown = await agent(gw, key, 'nope').catch((e: unknown) => e);
    t.ok(unknown instanceof StreamableHTTPError && unknown.code === 404);
    const anonymous = await call(`${gw.proxyUrl}/mcp/servers/calc`, { headers: { 'x-api-key': 'bst_wrong', accept: 'application/json, text/event-stream' }, body: { jsonrpc: '2.0', id: 1, method: 'ping' } });
    t.equal(anonymous.status, 401);
  });
});
