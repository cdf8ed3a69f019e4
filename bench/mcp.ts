/**
 * npm run bench:mcp — what the MCP proxy adds to a tools/call. A real SDK McpServer (Streamable HTTP, sessions) on
 * loopback answers a tool with a 1 KB text result; a real SDK Client calls it directly and through Bastion's
 * /mcp/servers/{name} (guard point [B] on the arguments, the pin lookup, guard point [A] on the result), alternating
 * call by call so both see the same machine load. Prints p50/p99 of each, the added latency and the ratio.
 * Everything runs in one process on SQLite; the inspection pool has its own threads. The same arguments and result
 * repeat, so from the second call on the verdict cache answers the inspections (what a steady agent loop sees for
 * repeated texts); BENCH_VARY=1 makes every result unique to measure the pool round trip instead.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { loadConfig } from '../src/config/load.js';
import { startGateway } from '../src/runtime.js';
import { createApiKey } from '../src/storage/api-keys.js';
import { putMcpServer } from '../src/storage/mcp-servers.js';
import { ensureTenant } from '../src/storage/tenants.js';
import { percentile, round } from './lib/stats.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 1000);
const WARMUP = 50;
const VARY = process.env.BENCH_VARY === '1';
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
    server.registerTool('lookup', { description: 'Looks up an order by its number.', inputSchema: { order: z.string().describe('The order number') } }, async () => ({
      content: [{ type: 'text', text: VARY ? `${++n} ${RESULT}`.slice(0, 1024) : RESULT }],
    }));
    transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => void sessions.set(id, transport!) });
    await server.connect(transport);
  }
  if (!transport) return void res.writeHead(404).end();
  await transport.handleRequest(req, res, body);
});
await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
const upstreamUrl = `http://127.0.0.1:${(upstream.address() as { port: number }).port}/mcp`;

const dir = mkdtempSync(join(tmpdir(), 'bastion-bench-'));
const config = loadConfig({}, {
  host: '127.0.0.1', port: 0, adminPort: 0, logLevel: 'warn', workers: 1, evolutionEnabled: false,
  databaseUrl: `sqlite:${join(dir, 'bench.db')}`, allowUnauthenticated: true, masterKey: Buffer.alloc(32, 9), mcpPrivateUpstreams: true,
});
const gateway = await startGateway(config);
const db = gateway.services.storage.db;
await ensureTenant(db, 'bench', 'enterprise');
const { key } = await createApiKey(db, { tenantId: 'bench', name: 'bench', ratePerMinute: 1_000_000, source: 'cli' });
await putMcpServer(db, config.masterKey, 'bench', 'orders', { url: upstreamUrl, credential: 'Bearer bench' });

async function connect(url: string, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  await client.listTools();
  return client;
}
const direct = await connect(upstreamUrl, { authorization: 'Bearer bench' });
const proxied = await connect(`http://127.0.0.1:${gateway.ports.proxy}/mcp/servers/orders`, { 'x-api-key': key });

async function timed(client: Client): Promise<number> {
  const t0 = process.hrtime.bigint();
  const result = await client.callTool({ name: 'lookup', arguments: { order: '1042' } });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const text = (result.content as { text: string }[])[0]?.text ?? JSON.stringify(result); if (text.length !== 1024) throw new Error(`unexpected result: ${text.slice(0, 200)}`);
  return ms;
}

const samples = { direct: [] as number[], proxied: [] as number[] };
for (let i = 0; i < WARMUP + RUNS; i++) {
  const d = await timed(direct);
  const p = await timed(proxied);
  if (i >= WARMUP) {
    samples.direct.push(d);
    samples.proxied.push(p);
  }
}
const row = (name: string, s: number[]) => ({ path: name, p50_ms: round(percentile(s, 50)), p99_ms: round(percentile(s, 99)) });
const added = samples.proxied.map((p, i) => p - samples.direct[i]);
console.table([row('direct (SDK client → McpServer)', samples.direct), row('through Bastion /mcp/servers/{name}', samples.proxied), row('added per call (paired)', added)]);
console.log(JSON.stringify({
  runs: RUNS,
  result_bytes: 1024,
  distinct_results: VARY,
  direct_p50_ms: round(percentile(samples.direct, 50)),
  proxied_p50_ms: round(percentile(samples.proxied, 50)),
  added_p50_ms: round(percentile(added, 50)),
  added_p99_ms: round(percentile(added, 99)),
  ratio_p50: round(percentile(samples.proxied, 50) / percentile(samples.direct, 50), 2),
  target_added_p50_ms: 1,
}));

await direct.close();
await proxied.close();
await gateway.close();
upstream.closeAllConnections();
upstream.close();
rmSync(dir, { recursive: true, force: true });
