/**
 * One benchmark server per process, so that what is measured never shares an event loop with the load generator or
 * with another target: `node --import tsx bench/lib/servers.ts <kind> [arg]`. Prints one JSON line ({ url, … }) once
 * listening and serves until killed.
 *   upstream            the fast fake OpenAI upstream (200-chunk streams)
 *   passthrough <url>   the floor: bare Fastify 5 + @fastify/reply-from, no auth, no limits, no inspection
 *   bare-json           a bare Fastify JSON route parsing the /filter body (the /filter floor)
 *   gateway <url> [n]   Bastion, full inspection, embedded mode (SQLite, in-process limiter), n workers (default 2)
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { loadConfig } from '../../src/config/load.js';
import { startGateway } from '../../src/runtime.js';
import { createApiKey } from '../../src/storage/api-keys.js';
import { ensureTenant } from '../../src/storage/tenants.js';
import { startFakeOpenAI } from './fake-openai.js';
import { startPassthrough } from './passthrough.js';

const [kind, arg, workers] = process.argv.slice(2);
// Exit on SIGTERM through process.exit, so a profile asked for with NODE_OPTIONS=--cpu-prof is written.
process.on('SIGTERM', () => process.exit(0));
const announce = (info: Record<string, unknown>) => process.stdout.write(JSON.stringify(info) + '\n');

if (kind === 'upstream') {
  announce({ url: (await startFakeOpenAI(200)).url });
} else if (kind === 'passthrough') {
  announce({ url: (await startPassthrough(arg)).url });
} else if (kind === 'bare-json') {
  const app = Fastify();
  app.post('/filter', async (request) => ({ allowed: true, length: (request.body as { content: string }).content.length }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  announce({ url: `http://127.0.0.1:${(app.server.address() as { port: number }).port}` });
} else if (kind === 'gateway') {
  const dir = mkdtempSync(join(tmpdir(), 'bastion-bench-'));
  const config = loadConfig({}, {
    host: '127.0.0.1', port: 0, adminPort: 0, databaseUrl: `sqlite:${join(dir, 'b.db')}`, allowUnauthenticated: true, logLevel: 'warn',
    upstreamBaseUrl: arg, metricsEnabled: process.env.BENCH_METRICS !== '0', workers: Number(workers ?? 2),
  });
  const gw = await startGateway(config, new Writable({ write: (_c, _e, done) => done() }));
  await ensureTenant(gw.services.storage.db, 'bench', 'enterprise');
  const { key } = await createApiKey(gw.services.storage.db, { tenantId: 'bench', name: 'bench', ratePerMinute: 100_000_000, source: 'cli' });
  announce({ url: `http://127.0.0.1:${gw.ports.proxy}`, key });
} else {
  throw new Error(`unknown server kind ${kind}`);
}
