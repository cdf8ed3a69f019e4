import t from 'tap';
import { z } from 'zod';
import { mcpRegistry } from '../../../src/mcp/proxy/registry-cache.js';
import { putMcpServer } from '../../../src/storage/mcp-servers.js';
import { call } from '../../helpers/http.js';
import { agent, proxyGateway, register, startUpstreamMcp } from './helpers.js';

// The stored credential is sent upstream under credential_header. A header that frames the message, routes it, is
// consumed hop by hop, or belongs to the MCP transport would let a tenant's credential rewrite the gateway's own
// request (its Host, its length, its session): only names fit to carry a credential are accepted.
const REFUSED = ['host', 'Content-Length', 'transfer-encoding', 'connection', 'keep-alive', 'te', 'trailer', 'upgrade', 'proxy-authorization', 'content-type', 'accept', 'expect', 'mcp-session-id', 'Mcp-Protocol-Version', 'last-event-id', 'x-forwarded-for', 'forwarded', 'bastion-relay-hops', 'x-request-id'];
const ACCEPTED = ['authorization', 'x-api-key', 'api-key', 'cookie', 'x-goog-api-key', 'private-token'];

t.test('credential_header accepts only header names fit to carry a credential', async (t) => {
  const gw = await proxyGateway(t);
  const key = await gw.key('acme');
  const put = (header: string) => call(`${gw.adminUrl}/mcp/servers/s`, { method: 'PUT', headers: { 'x-api-key': key }, body: { url: 'https://mcp.example.com/mcp', credential: 'Bearer secret', credential_header: header } });
  for (const header of REFUSED) {
    const reply = await put(header);
    t.equal(reply.status, 422, `${header} refused`);
    t.match(reply.json(), { detail: [{ loc: ['body', 'credential_header'] }] }, `${header}: the field is named`);
  }
  for (const header of ACCEPTED) t.ok([200, 201].includes((await put(header)).status), `${header} accepted`);
});

t.test('a server stored with such a header (before this check) is never relayed with it', async (t) => {
  const upstream = await startUpstreamMcp(t, (server) => {
    server.registerTool('add', { description: 'Adds two numbers.', inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }));
  });
  const gw = await proxyGateway(t);
  const key = await gw.key('acme', { rate: 10_000 });
  await register(gw, key, 'calc', { url: upstream.url, credential: 'Bearer upstream-secret' });
  const { storage, config } = gw.services;
  await putMcpServer(storage.db, config.masterKey, 'acme', 'calc', { url: upstream.url, credential: 'evil.example', credentialHeader: 'Host', allowedTools: null, newTools: 'auto' });
  await mcpRegistry(gw.services).changed('acme');
  const connected = await agent(gw, key, 'calc').then(() => 'connected', (e: Error) => e.message);
  t.match(connected, /credential_header/, 'the agent is told the registration needs another credential header');
  t.same(upstream.seen, [], 'nothing reached the upstream');
});
