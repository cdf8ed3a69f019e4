import { createServer } from 'node:http';
import t from 'tap';
import { z } from 'zod';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { call } from '../../helpers/http.js';
import { agent, proxyGateway, register, startUpstreamMcp } from './helpers.js';

const BIG = 'The quarterly report lists revenue by region and product line. '.repeat(4000); // ~256 KB

/**
 * A hand-written Streamable HTTP server speaking the wire format byte by byte, for what the SDK server never does:
 * a large answer trickled in small chunks, and messages that are not JSON-RPC.
 */
async function rawUpstream(t: { teardown(fn: () => unknown): void }) {
  const state = { bigFinished: false };
  const http = createServer(async (req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const msg = JSON.parse(Buffer.concat(chunks).toString()) as { id?: number; method?: string; params?: { name?: string; _meta?: { progressToken?: string | number } } };
    const json = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'raw-session-1' }).end(JSON.stringify(body));
    if (msg.method === 'initialize') return json({ jsonrpc: '2.0', id: msg.id, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'raw', version: '1' } } });
    if (msg.id === undefined) return void res.writeHead(202).end();
    if (msg.method === 'tools/list') {
      const tool = (name: string) => ({ name, description: `The ${name} tool.`, inputSchema: { type: 'object', properties: {} } });
      return json({ jsonrpc: '2.0', id: msg.id, result: { tools: [tool('big'), tool('garbage'), tool('notrpc')] } });
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 'raw-session-1' });
    const name = msg.params?.name;
    if (name === 'garbage') return void res.end('event: message\ndata: {this is not json\n\n');
    if (name === 'notrpc') return void res.end(`event: message\ndata: ${JSON.stringify({ hello: 'world' })}\n\n`);
    const token = msg.params?._meta?.progressToken;
    res.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: 1, total: 2 } })}\n\n`);
    const frame = `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { content: [{ type: 'text', text: BIG }] } })}\n\n`;
    for (let i = 0; i < frame.length; i += 16_384) {
      await new Promise((r) => setTimeout(r, 15));
      res.write(frame.slice(i, i + 16_384));
    }
    state.bigFinished = true;
    res.end();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => http.close(resolve)));
  return { url: `http://127.0.0.1:${(http.address() as { port: number }).port}/mcp`, state };
}

t.test('failures upstream and malformed JSON-RPC never become an answer', async (t) => {
  const gw = await proxyGateway(t);
  const key = await gw.key('acme', { rate: 10_000 });
  const raw = await rawUpstream(t);
  await register(gw, key, 'raw', { url: raw.url });

  t.test('a large result streamed slowly arrives whole, progress relayed before it ends', async (t) => {
    const { client } = await agent(gw, key, 'raw');
    t.teardown(() => client.close());
    await client.listTools();
    let progressBeforeEnd: boolean | undefined;
    const result = await client.callTool({ name: 'big', arguments: {} }, undefined, { onprogress: () => void (progressBeforeEnd = !raw.state.bigFinished), timeout: 60_000 });
    t.equal(progressBeforeEnd, true, 'the progress event was relayed while the upstream was still sending the result');
    t.equal((result.content as { text: string }[])[0].text, BIG, 'the whole result, unchanged');
  });

  t.test('an upstream message that is not JSON-RPC becomes a JSON-RPC error', async (t) => {
    const { client } = await agent(gw, key, 'raw');
    t.teardown(() => client.close());
    await client.listTools();
    for (const name of ['garbage', 'notrpc']) {
      const err = await client.callTool({ name, arguments: {} }).catch((e: unknown) => e);
      t.ok(err instanceof McpError, `${name}: an error, not a result`);
      t.equal((err as McpError).code, -32052);
    }
  });

  t.test('an upstream that dies mid-call: a JSON-RPC error, never a partial allow', async (t) => {
    const upstream = await startUpstreamMcp(t, (server, up) => {
      server.registerTool('fragile', { description: 'Does some work.', inputSchema: {} }, async (_args, extra) => {
        await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: extra._meta!.progressToken!, progress: 1 } });
        setTimeout(() => up.cut(), 50);
        await new Promise((r) => setTimeout(r, 5000));
        return { content: [{ type: 'text', text: 'too late' }] };
      });
    });
    await register(gw, key, 'fragile', { url: upstream.url });
    const { client } = await agent(gw, key, 'fragile');
    t.teardown(() => client.close().catch(() => undefined));
    await client.listTools();
    const err = await client.callTool({ name: 'fragile', arguments: {} }, undefined, { onprogress: () => undefined }).catch((e: unknown) => e);
    t.ok(err instanceof McpError, 'an error');
    t.equal((err as McpError).code, -32052);
    t.match((err as McpError).data, { bastion: { reason: 'upstream_failed' } });
  });

  t.test('bad JSON-RPC from the agent: 4xx, never 500, never forwarded', async (t) => {
    const url = `${gw.proxyUrl}/mcp/servers/raw`;
    const accept = 'application/json, text/event-stream';
    const cases: [string, Parameters<typeof call>[1], number][] = [
      ['not JSON', { headers: { 'x-api-key': key, accept }, raw: '{"jsonrpc":' }, 422],
      ['not JSON-RPC', { headers: { 'x-api-key': key, accept }, body: { hello: 'world' } }, 422],
      ['wrong version', { headers: { 'x-api-key': key, accept }, body: { jsonrpc: '1.0', id: 1, method: 'ping' } }, 422],
      ['empty batch', { headers: { 'x-api-key': key, accept }, body: [] }, 422],
      ['batch too long', { headers: { 'x-api-key': key, accept }, body: Array.from({ length: 17 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' })) }, 422],
      ['no Accept', { headers: { 'x-api-key': key }, body: { jsonrpc: '2.0', id: 1, method: 'ping' } }, 406],
      ['no session', { headers: { 'x-api-key': key, accept }, body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } }, 400],
      ['forged session', { headers: { 'x-api-key': key, accept, 'mcp-session-id': 'cmF3LXNlc3Npb24tMQ.AAAAAAAAAAAAAAAAAAAAAA' }, body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } }, 404],
    ];
    for (const [name, options, status] of cases) {
      const reply = await call(url, options);
      t.equal(reply.status, status, name);
      t.ok(reply.json<{ error?: { code: string }; detail?: unknown }>().error?.code ?? reply.json<{ detail?: unknown }>().detail, `${name}: the catalogue shape`);
    }
  });
});
