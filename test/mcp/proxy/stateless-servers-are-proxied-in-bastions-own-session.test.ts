import { createServer } from 'node:http';
import t from 'tap';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { call } from '../../helpers/http.js';
import { listenLoopback, proxiedAgent } from './helpers.js';

/** The SDK's stateless mode: no session ids, a new server and transport for every POST, GET and DELETE refused. */
async function statelessUpstream(t: { teardown(fn: () => unknown): void }) {
  const sessionHeaders: (string | undefined)[] = [];
  const http = createServer(async (req, res) => {
    sessionHeaders.push(req.headers['mcp-session-id'] as string | undefined);
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const server = new McpServer({ name: 'stateless', version: '1.0.0' });
    server.registerTool('add', { description: 'Adds two numbers.', inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void transport.close().then(() => server.close()));
    await server.connect(transport);
    await transport.handleRequest(req, res, JSON.parse(Buffer.concat(chunks).toString()));
  });
  return { url: `${await listenLoopback(t, http)}/mcp`, sessionHeaders };
}

t.test('a server that issues no session id is proxied in a session of Bastion\'s own', async (t) => {
  const upstream = await statelessUpstream(t);
  const { gw, key, client, transport } = await proxiedAgent(t, 'calc', upstream.url);

  t.same((await client.listTools()).tools.map((x) => x.name), ['add'], 'the SDK client lists the tools after initialize');
  const result = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
  t.same(result.content, [{ type: 'text', text: '5' }], 'and calls them');
  t.match(transport.sessionId, /^~/, "the agent holds Bastion's session id");
  t.same(upstream.sessionHeaders.filter((h) => h !== undefined), [], 'which never reaches the server');

  t.test("the session is bound to the agent's key", async (t) => {
    const other = await gw.key('acme', { rate: 10_000 });
    const reply = await call(`${gw.proxyUrl}/mcp/servers/calc`, { method: 'POST', headers: { 'x-api-key': other, 'mcp-session-id': transport.sessionId!, accept: 'application/json, text/event-stream' }, body: { jsonrpc: '2.0', id: 9, method: 'tools/list' } });
    t.equal(reply.status, 404, "another key of the same tenant cannot use it");
    const forged = await call(`${gw.proxyUrl}/mcp/servers/calc`, { method: 'POST', headers: { 'x-api-key': key, 'mcp-session-id': `~${'A'.repeat(22)}.${'B'.repeat(22)}`, accept: 'application/json, text/event-stream' }, body: { jsonrpc: '2.0', id: 9, method: 'tools/list' } });
    t.equal(forged.status, 404, 'nor does a made-up one');
  });

  t.test('ending the session needs no server', async (t) => {
    await transport.terminateSession();
    t.equal(transport.sessionId, undefined, 'the SDK client ended it without an error');
  });
});
