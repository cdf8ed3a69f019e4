import autocannon from 'autocannon';
import Fastify from 'fastify';
import { loadConfig } from '../../src/config/load.js';
import { startGateway } from '../../src/runtime.js';
import { createApiKey } from '../../src/storage/api-keys.js';
import { ensureTenant } from '../../src/storage/tenants.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { round } from './stats.js';

export interface Throughput {
  rps: number;
  p50: number;
  p99: number;
}

async function cannon(url: string, headers: Record<string, string>, body: () => string, seconds = 8): Promise<Throughput> {
  const result = await autocannon({
    url, connections: 50, duration: seconds,
    requests: [{ method: 'POST', headers: { 'content-type': 'application/json', ...headers }, setupRequest: (req) => ({ ...req, body: body() }) }],
  });
  if (result.non2xx > 0) throw new Error(`${result.non2xx} non-2xx responses from ${url}`);
  return { rps: Math.round(result.requests.average), p50: round(result.latency.p50, 2), p99: round(result.latency.p99, 2) };
}

/** /filter through the full gateway vs. a bare Fastify endpoint parsing the same JSON, one after the other. */
export async function measureThroughput(content: string): Promise<{ floor: Throughput; bastion: Throughput }> {
  // A different text on every request (a counter appended), so the verdict cache never answers for the pipeline.
  let seq = 0;
  const body = () => JSON.stringify({ content: `${content.slice(0, content.length - 12)} #${++seq}`, kind: 'prompt' });

  const bare = Fastify();
  bare.post('/filter', async (request) => ({ allowed: true, length: (request.body as { content: string }).content.length }));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const floor = await cannon(`http://127.0.0.1:${(bare.server.address() as { port: number }).port}/filter`, {}, body);
  await bare.close();

  const dir = mkdtempSync(join(tmpdir(), 'bastion-bench-'));
  const silent = new Writable({ write: (_c, _e, done) => done() });
  const config = loadConfig({}, { host: '127.0.0.1', port: 0, adminPort: 0, databaseUrl: `sqlite:${join(dir, 'b.db')}`, allowUnauthenticated: true, logLevel: 'warn' });
  const gw = await startGateway(config, silent);
  await ensureTenant(gw.services.storage.db, 'bench', 'enterprise');
  const { key } = await createApiKey(gw.services.storage.db, { tenantId: 'bench', name: 'bench', ratePerMinute: 10_000_000, source: 'cli' });
  try {
    const bastion = await cannon(`http://127.0.0.1:${gw.ports.proxy}/filter`, { 'x-api-key': key }, body);
    return { floor, bastion };
  } finally {
    await gw.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
