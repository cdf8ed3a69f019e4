import { createServer } from 'node:http';
import t from 'tap';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { call } from '../../helpers/http.js';
import { listenLoopback, proxiedAgent } from './helpers.js';

const DEPTH = 200_000;

/** A Streamable HTTP server that answers one tool with a structuredContent nested DEPTH levels deep. */
async function deepUpstream(t: { teardown(fn: () => unknown): void }) {
  const methods: string[] = [];
  const http = createServer(async (req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString()) as { id?: number; method?: string } | { id?: number; method?: string }[];
    const msg = Array.isArray(body) ? body[0] : body;
    for (const m of Array.isArray(body) ? body : [body]) methods.push(m.method ?? 'response');
    const json = (b: unknown) => res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'deep-1' }).end(JSON.stringify(b));
    if (msg.method === 'initialize') return json({ jsonrpc: '2.0', id: msg.id, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'deep', version: '1' } } });
    if (msg.id === undefined) return void res.writeHead(202).end();
    if (msg.method === 'tools/list') return json({ jsonrpc: '2.0', id: msg.id, result: { tools: [{ name: 'deep', description: 'Returns a tree.', inputSchema: { type: 'object', properties: {} } }] } });
    if (msg.method === 'ping') return json({ jsonrpc: '2.0', id: msg.id, result: {} });
    res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 'deep-1' });
    const tree = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;
    res.end(`event: message\ndata: {"jsonrpc":"2.0","id":${JSON.stringify(msg.id)},"result":{"content":[],"structuredContent":{"tree":${tree}}}}\n\n`);
  });
  return { url: `${await listenLoopback(t, http)}/mcp`, methods };
}

t.test('malformed shapes get JSON-RPC answers, never a 500 or silence', async (t) => {
  const upstream = await deepUpstream(t);
  const { gw, key, client, transport } = await proxiedAgent(t, 'deep', upstream.url);
  await client.listTools();
  const post = (raw: string) =>
    call(`${gw.proxyUrl}/mcp/servers/deep`, { method: 'POST', headers: { 'x-api-key': key, 'mcp-session-id': transport.sessionId!, accept: 'application/json, text/event-stream' }, raw });

  t.test('an answer nested 200,000 deep is withheld with -32051', async (t) => {
    const err = await client.callTool({ name: 'deep', arguments: {} }, undefined, { timeout: 15_000 }).catch((e: unknown) => e);
    t.ok(err instanceof McpError, 'a JSON-RPC error reaches the agent');
    t.equal((err as McpError).code, -32051);
    t.match((err as McpError).data, { bastion: { reason: 'too_deep' } });
  });

  t.test('a ping with deeply nested params gets a JSON-RPC error and never reaches the server', async (t) => {
    const before = upstream.methods.length;
    const reply = await post(`{"jsonrpc":"2.0","id":7,"method":"ping","params":{"x":${'['.repeat(50_000)}${']'.repeat(50_000)}}}`);
    t.equal(reply.status, 200);
    t.match(reply.json(), { jsonrpc: '2.0', id: 7, error: { code: -32600, message: /nests deeper/ } });
    t.equal(upstream.methods.length, before, 'nothing was sent upstream');
  });

  t.test('a tools/call without an id is refused, not sent', async (t) => {
    const before = upstream.methods.length;
    const reply = await post(JSON.stringify({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'deep', arguments: { command: 'rm -rf /' } } }));
    t.equal(reply.status, 200);
    t.match(reply.json(), { jsonrpc: '2.0', id: null, error: { code: -32600, message: /needs an id/ } });
    t.same(upstream.methods.slice(before), [], 'the server never saw it');
  });

  t.test('a refused batch is answered as a JSON-RPC array', async (t) => {
    const reply = await post(JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'shell', arguments: {} } }, { jsonrpc: '2.0', id: 2, method: 'ping' }]));
    t.equal(reply.status, 200);
    const body = reply.json<unknown>();
    t.ok(Array.isArray(body), 'an array, not an object keyed by position');
    t.match(body, [{ id: 1, error: { code: -32050 } }, { id: 2, error: { code: -32050 } }]);
  });
});
