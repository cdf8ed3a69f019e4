import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { call } from '../helpers/http.js';
import { spawnGateway } from '../helpers/process.js';
import { startUpstreamMcp } from '../mcp/proxy/helpers.js';

// Two real gateway processes one after another: more than tap's default on a loaded machine.
t.setTimeout(300_000);

t.test("npm start keeps a master key, so the README's MCP example works on a fresh clone", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'bastion-quickstart-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const tokens: (string | undefined)[] = [];
  const upstream = await startUpstreamMcp(t, (server) => {
    server.registerTool('echo', { description: 'Echoes a word.', inputSchema: { word: z.string() } }, async ({ word }) => ({ content: [{ type: 'text', text: word }] }));
  });
  const env = { BASTION_MCP_PRIVATE_UPSTREAMS: 'true' };

  const gw = await spawnGateway(t, ['quickstart'], env, dir);
  const key = /\n {2}(bst_[0-9A-Za-z]{43})\n/.exec(gw.stdout())![1];
  const file = join(dir, 'data', 'master.key');
  t.equal(statSync(file).mode & 0o777, 0o600, 'the key file is readable by its owner only');
  const masterHex = readFileSync(file, 'utf8').trim();
  t.match(masterHex, /^[0-9a-f]{64}$/);
  t.match(gw.stdout(), /Created a master key in .*master\.key/);

  const put = await call(`http://127.0.0.1:${gw.adminPort}/mcp/servers/tickets`, { method: 'PUT', headers: { 'x-api-key': key }, body: { url: upstream.url, credential: 'Bearer upstream-token-1' } });
  t.equal(put.status, 201, 'a credential is sealed, not refused with 503');
  gw.child.kill('SIGTERM');
  await gw.exited;
  t.notOk(gw.stdout().includes(masterHex) || gw.stderr().includes(masterHex), 'the master key never appears in the output');

  const again = await spawnGateway(t, ['quickstart'], env, dir);
  t.teardown(() => void again.child.kill('SIGTERM'));
  t.notMatch(again.stdout(), /Created a master key/, 'a second start keeps the same key');
  t.equal(readFileSync(file, 'utf8').trim(), masterHex);
  const client = new Client({ name: 'agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${again.proxyPort}/mcp/servers/tickets`), { requestInit: { headers: { 'x-api-key': key } } }));
  t.teardown(() => client.close());
  await client.listTools();
  t.same((await client.callTool({ name: 'echo', arguments: { word: 'hello' } })).content, [{ type: 'text', text: 'hello' }]);
  tokens.push(...upstream.seen.map((s) => s.authorization));
  t.ok(tokens.includes('Bearer upstream-token-1'), 'the stored credential, opened after a restart, reached the server');
});
