// The Bastion target of the benchmarks, in plain JavaScript so that what is measured is what ships:
// `node bench/lib/gateway.mjs <upstream> [workers]` runs the compiled tree in dist/ (npm run build) with no TypeScript
// loader in any thread; `node --import tsx bench/lib/gateway.mjs …` with BENCH_SOURCE=tsx runs src/ through tsx, as
// a checkout without a build does. Full inspection, embedded mode (SQLite, in-process limiter), n workers
// (default 2). Prints one JSON line ({ url, key }) once listening and serves until killed. BENCH_MCP_UPSTREAM=<url>
// registers that Streamable HTTP MCP server as `orders` for the bench tenant (credential `Bearer bench`).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';

const tree = process.env.BENCH_SOURCE === 'tsx' ? '../../src' : '../../dist';
const [{ loadConfig }, { startGateway }, { createApiKey }, { ensureTenant }, { putMcpServer }] = await Promise.all([
  import(`${tree}/config/load.js`),
  import(`${tree}/runtime.js`),
  import(`${tree}/storage/api-keys.js`),
  import(`${tree}/storage/tenants.js`),
  import(`${tree}/storage/mcp-servers.js`),
]);
const mcpUpstream = process.env.BENCH_MCP_UPSTREAM;

const [upstream, workers] = process.argv.slice(2);
// Exit on SIGTERM through process.exit, so a profile asked for with NODE_OPTIONS=--cpu-prof is written.
process.on('SIGTERM', () => process.exit(0));
const dir = mkdtempSync(join(tmpdir(), 'bastion-bench-'));
const config = loadConfig({}, {
  host: '127.0.0.1', port: 0, adminPort: 0, databaseUrl: `sqlite:${join(dir, 'b.db')}`, allowUnauthenticated: true, logLevel: 'warn',
  upstreamBaseUrl: upstream, anthropicUpstreamBaseUrl: upstream, metricsEnabled: process.env.BENCH_METRICS !== '0', workers: Number(workers ?? 2),
  // BENCH_HEAP_GROWTH=<percent>: the heap growth setting (BASTION_HEAP_GROWTH_PERCENT; 0 = V8's own choice), to compare.
  ...(process.env.BENCH_HEAP_GROWTH !== undefined ? { heapGrowthPercent: Number(process.env.BENCH_HEAP_GROWTH) } : {}),
  ...(mcpUpstream ? { masterKey: Buffer.alloc(32, 9), mcpPrivateUpstreams: true } : {}),
});
const gw = await startGateway(config, new Writable({ write: (_c, _e, done) => done() }));
await ensureTenant(gw.services.storage.db, 'bench', 'enterprise');
const { key } = await createApiKey(gw.services.storage.db, { tenantId: 'bench', name: 'bench', ratePerMinute: 100_000_000, source: 'cli' });
if (mcpUpstream) await putMcpServer(gw.services.storage.db, config.masterKey, 'bench', 'orders', { url: mcpUpstream, credential: 'Bearer bench' });
// BENCH_MEMORY_FILE=<path>: on SIGUSR2, writes the main thread's memory breakdown (MB) there (bench/memory.ts).
if (process.env.BENCH_MEMORY_FILE) {
  const [{ writeFileSync }, { getHeapSpaceStatistics }] = await Promise.all([import('node:fs'), import('node:v8')]);
  process.on('SIGUSR2', () => {
    const mb = (n) => Math.round(n / 1048576);
    const u = process.memoryUsage();
    const spaces = Object.fromEntries(getHeapSpaceStatistics().map((s) => [s.space_name, `${mb(s.space_used_size)}/${mb(s.space_size)}`]));
    writeFileSync(process.env.BENCH_MEMORY_FILE, JSON.stringify({ rss: mb(u.rss), heap_total: mb(u.heapTotal), heap_used: mb(u.heapUsed), external: mb(u.external), array_buffers: mb(u.arrayBuffers), spaces_used_of_size: spaces }));
  });
}
process.stdout.write(JSON.stringify({ url: `http://127.0.0.1:${gw.ports.proxy}`, key }) + '\n');
