import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { call } from '../helpers/http.js';
import { spawnGateway } from '../helpers/process.js';
import { startUpstreamMcp } from '../mcp/proxy/helpers.js';

const KEY = 'bst_drain_mcp_test_key_0123456789abcdefghijklmno';

t.test('SIGINT with an MCP client holding its event stream: the idle stream ends at once, a call in progress keeps the grace and gets its answer', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'bastion-sigint-mcp-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let called!: () => void;
  const calling = new Promise<void>((resolve) => (called = resolve));
  let streams = 0;
  const upstream = await startUpstreamMcp(t, (server) => {
    server.registerTool('slow_report', { description: 'Builds a report.', inputSchema: { id: z.string() } }, async () => {
      called();
      await released;
      return { content: [{ type: 'text', text: 'report ready' }] };
    });
  });
  // The grace period is far longer than the test may take: a drain that waited it out would fail the test's timeout.
  const gw = await spawnGateway(t, ['serve'], { BASTION_API_KEYS: `acme:${KEY}`, BASTION_MCP_PRIVATE_UPSTREAMS: 'true', BASTION_SHUTDOWN_GRACE_MS: '600000' }, dir);
  const put = await call(`http://127.0.0.1:${gw.adminPort}/mcp/servers/reports`, { method: 'PUT', headers: { 'x-api-key': KEY }, body: { url: upstream.url } });
  t.match(gw.stdout(), /"msg":"bastion listening"/);
  t.match(gw.stdout(), /"model":"none"/, 'the start-up line says no transformer model is loaded');
  t.equal(put.status, 201, 'the server is registered');

  const client = new Client({ name: 'agent', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${gw.proxyPort}/mcp/servers/reports`), {
    requestInit: { headers: { 'x-api-key': KEY } },
    // One reconnection attempt at most, long after the test: the client's own retries are not what is tested.
    reconnectionOptions: { initialReconnectionDelay: 600_000, maxReconnectionDelay: 600_000, reconnectionDelayGrowFactor: 1, maxRetries: 0 },
  });
  transport.onerror = () => {};
  await client.connect(transport);
  t.teardown(() => client.close().catch(() => {}));
  t.same((await client.listTools()).tools.map((x) => x.name), ['slow_report']);
  // The client opens the session's GET event stream after initialising: wait until the upstream has it open.
  while (!upstream.seen.some((s) => s.http === 'GET')) await new Promise((r) => setTimeout(r, 20));
  streams = upstream.seen.filter((s) => s.http === 'GET').length;

  const report = client.callTool({ name: 'slow_report', arguments: { id: 'q3' } });
  await calling;
  gw.child.kill('SIGINT');
  while (!gw.stdout().includes('shutting down')) await new Promise((r) => setTimeout(r, 20));
  release();
  const result = await report;
  t.same(result.content, [{ type: 'text', text: 'report ready' }], 'the call in progress was answered during the drain');
  t.equal(await gw.exited, 0, 'the process exits 0 once that answer is sent, without waiting for the event stream');
  const out = gw.stdout();
  t.notMatch(out, /grace period over/, 'the grace period never ran out');
  t.match(out.trim().split('\n').at(-1), /"event":"stopped".*"signal":"SIGINT".*"msg":"stopped"/, 'the last line says the gateway stopped');
  t.equal(upstream.seen.filter((s) => s.http === 'GET').length, streams, 'the event stream was not reopened upstream');
});
