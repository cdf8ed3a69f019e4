/**
 * npm run bench:mcp — what the MCP proxy adds to a tools/call. A real SDK McpServer (Streamable HTTP, sessions) on
 * loopback answers a tool with a 1 KB text result; a real SDK Client calls it directly and through Bastion's
 * /mcp/servers/{name} (guard point [B] on the arguments, the pin lookup, guard point [A] on the result), alternating
 * call by call so both see the same machine load. Bastion runs as it ships: the compiled tree in its own process (a
 * sidecar), one inspection thread, SQLite; the client and the upstream share this process, on both paths alike.
 * Two rounds in one run: `lookup` answers the same result every time (from the second call on the verdict cache
 * answers both inspections) and `lookup_fresh` a different one every time (the result goes through the pool: what an
 * agent reading new data sees). Prints p50/p99 of each path, the added latency and the ratio, per round.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { startServer } from './lib/child.js';
import { percentile, round } from './lib/stats.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 1000);
const WARMUP = 100;
const TARGET_ADDED_P50_MS = 1;
const RESULT = 'Order 1042 shipped from the Lyon warehouse on Tuesday, two parcels, signed for at the front desk. '.repeat(11).slice(0, 1024);

// The upstream: one McpServer per session, as the SDK's own example serves it.
const sessions = new Map<string, StreamableHTTPServerTransport>();
let n = 0;
const upstream = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
  let transport = sessions.get(req.headers['mcp-session-id'] as string);
  if (!transport && isInitializeRequest(body)) {
    const server = new McpServer({ name: 'bench', version: '1.0.0' });
    const input = { inputSchema: { order: z.string().describe('The order number') } };
    server.registerTool('lookup', { description: 'Looks up an order by its number.', ...input }, async () => ({ content: [{ type: 'text', text: RESULT }] }));
    server.registerTool('lookup_fresh', { description: 'Looks up the latest state of an order by its number.', ...input }, async () => ({
      content: [{ type: 'text', text: `${++n} ${RESULT}`.slice(0, 1024) }],
    }));
    transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => void sessions.set(id, transport!) });
    await server.connect(transport);
  }
  if (!transport) return void res.writeHead(404).end();
  await transport.handleRequest(req, res, body);
});
await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
const upstreamUrl = `http://127.0.0.1:${(upstream.address() as { port: number }).port}/mcp`;
const gateway = await startServer(['gateway', 'http://127.0.0.1:9', '1'], { BENCH_MCP_UPSTREAM: upstreamUrl });

async function connect(url: string, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  await client.listTools();
  return client;
}
const direct = await connect(upstreamUrl, { authorization: 'Bearer bench' });
const proxied = await connect(`${gateway.url}/mcp/servers/orders`, { 'x-api-key': gateway.info.key });

async function timed(client: Client, tool: string): Promise<number> {
  const t0 = process.hrtime.bigint();
  const result = await client.callTool({ name: tool, arguments: { order: '1042' } });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const text = (result.content as { text: string }[])[0]?.text ?? JSON.stringify(result); if (text.length !== 1024) throw new Error(`unexpected result: ${text.slice(0, 200)}`);
  return ms;
}

const row = (name: string, s: number[]) => ({ path: name, p50_ms: round(percentile(s, 50)), p99_ms: round(percentile(s, 99)) });
const figures: Record<string, unknown>[] = [];
for (const [round_, tool] of [['same result', 'lookup'], ['a new result each call', 'lookup_fresh']] as const) {
  const samples = { direct: [] as number[], proxied: [] as number[] };
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const d = await timed(direct, tool);
    const p = await timed(proxied, tool);
    if (i >= WARMUP) {
      samples.direct.push(d);
      samples.proxied.push(p);
    }
  }
  const added = samples.proxied.map((p, i) => p - samples.direct[i]);
  console.log(`\n${round_} (${tool}), ${RUNS} calls each way`);
  console.table([row('direct (SDK client → McpServer)', samples.direct), row('through Bastion /mcp/servers/{name}', samples.proxied), row('added per call (paired)', added)]);
  figures.push({
    result: tool === 'lookup' ? 'same' : 'new_each_call',
    direct_p50_ms: round(percentile(samples.direct, 50)),
    proxied_p50_ms: round(percentile(samples.proxied, 50)),
    added_p50_ms: round(percentile(added, 50)),
    added_p99_ms: round(percentile(added, 99)),
    ratio_p50: round(percentile(samples.proxied, 50) / percentile(samples.direct, 50), 2),
    within_target: percentile(added, 50) <= TARGET_ADDED_P50_MS,
  });
}
console.log(JSON.stringify({ runs: RUNS, result_bytes: 1024, target_added_p50_ms: TARGET_ADDED_P50_MS, rounds: figures }));

await direct.close();
await proxied.close();
gateway.close();
upstream.closeAllConnections();
upstream.close();
