import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { metricsOf } from '../../src/telemetry/metrics.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { MASTER_KEY } from '../helpers/portal.js';

const BIN = fileURLToPath(new URL('../../bin/bastion.js', import.meta.url));
const SERVER = fileURLToPath(new URL('./fixtures/stdio-mcp-server.mjs', import.meta.url));

t.test('bastion mcp wrap: an SDK client over stdio uses a stdio server through the gateway, guarded both ways', async (t) => {
  const gw = await startTestGateway(t, { config: { masterKey: MASTER_KEY } });
  const key = await gw.key('acme', { rate: 10_000 });
  const registered = await call(`${gw.adminUrl}/mcp/servers/local`, { method: 'PUT', headers: { 'x-api-key': key }, body: { url: 'stdio://local' } });
  t.equal(registered.status, 201, 'a stdio server is registered with a stdio:// URL');

  const ranLog = join(mkdtempSync(join(tmpdir(), 'bastion-wrap-')), 'ran.log');
  const client = new Client({ name: 'desktop-agent', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', 'wrap', '--server', 'local', '--', process.execPath, SERVER],
    env: { PATH: process.env.PATH!, BASTION_GATEWAY_URL: gw.proxyUrl, BASTION_API_KEY: key, RAN_LOG: ranLog },
    stderr: 'pipe',
  });
  await client.connect(transport);
  t.teardown(() => client.close());
  t.equal(client.getServerVersion()?.name, 'local-files', 'initialize reaches the wrapped server and its answer comes back');

  const list = await client.listTools();
  t.same(list.tools.map((x) => x.name), ['shell'], 'the poisoned description is withheld');
  t.match(list._meta?.['bastion/withheld'], [{ name: 'add', reason: 'definition_blocked' }]);

  t.same((await client.callTool({ name: 'shell', arguments: { command: 'ls -la ./src' } })).content, [{ type: 'text', text: 'ran: 12 chars' }], 'an ordinary call works as without Bastion');

  const dangerous = await client.callTool({ name: 'shell', arguments: { command: 'rm -rf / --no-preserve-root' } }).catch((e: unknown) => e);
  t.ok(dangerous instanceof McpError && dangerous.code === -32050, 'a dangerous call is refused with a JSON-RPC error');
  t.match((dangerous as McpError).data, { bastion: { action: 'block', reason: 'dangerous_call', tool: 'shell' } });
  const poisoned = await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }).catch((e: unknown) => e);
  t.match((poisoned as McpError).data, { bastion: { reason: 'tool_definition_blocked' } }, 'the withheld tool is refused when called anyway');
  t.same(existsSync(ranLog) ? readFileSync(ranLog, 'utf8').trim().split('\n') : [], ['shell 12'], 'the server ran the ordinary call only');

  const pins = (await call(`${gw.adminUrl}/mcp/servers/local/tools`, { headers: { 'x-api-key': key } })).json<{ tool: string; status: string }[]>();
  t.same(pins.map((p) => [p.tool, p.status]), [['add', 'withheld'], ['shell', 'approved']], 'the first list is pinned in the gateway like an HTTP server\'s; the poisoned tool shows as withheld');
  const metrics = await metricsOf(gw.services).registry.metrics();
  t.match(metrics, /bastion_mcp_messages_total\{[^}]*server="local"[^}]*method="tools\/call"[^}]*outcome="blocked"[^}]*\} 2/, 'the verdicts are counted by the gateway');
});

t.test('bastion mcp wrap fails closed when the gateway cannot judge', async (t) => {
  const client = new Client({ name: 'desktop-agent', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', 'wrap', '--server', 'local', '--', process.execPath, SERVER],
    env: { PATH: process.env.PATH!, BASTION_GATEWAY_URL: 'http://127.0.0.1:9', BASTION_API_KEY: 'bk_nothing' },
    stderr: 'pipe',
  });
  const connected = await client.connect(transport).then(() => 'connected', (e: unknown) => e);
  t.ok(connected instanceof McpError && connected.code === -32050, 'initialize is refused, never passed on unjudged');
  await client.close();
});
