import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config/load.js';
import type { Config } from '../../src/config/schema.js';
import { startGateway } from '../../src/runtime.js';
import { createApiKey } from '../../src/storage/api-keys.js';
import { ensureTenant } from '../../src/storage/tenants.js';

/**
 * /filter throughput over HTTP on the dev set's mix of kinds and labels, every request a new text (a counter appended,
 * so the verdict cache never answers), once without a model and once with `model` under model_stage uncertain.
 */
export async function measureMixThroughput(items: { text: string; kind: string }[], model: string, seconds = 10) {
  const out: Record<string, { rps: number; p50: number; p99: number }> = {};
  for (const [label, extra] of [['no model', {}], ['model_stage uncertain', { model, modelLabel: 'LABEL_1', modelStage: 'uncertain' as const }]] as [string, Partial<Config>][]) {
    const dir = mkdtempSync(join(tmpdir(), 'bastion-bench-'));
    const config = loadConfig({}, { host: '127.0.0.1', port: 0, adminPort: 0, databaseUrl: `sqlite:${join(dir, 'b.db')}`, allowUnauthenticated: true, logLevel: 'warn', ...extra });
    const gw = await startGateway(config, new Writable({ write: (_c, _e, done) => done() }));
    await ensureTenant(gw.services.storage.db, 'bench', 'enterprise');
    const { key } = await createApiKey(gw.services.storage.db, { tenantId: 'bench', name: 'bench', ratePerMinute: 10_000_000, source: 'cli' });
    let seq = 0;
    try {
      const result = await autocannon({
        url: `http://127.0.0.1:${gw.ports.proxy}/filter`,
        connections: 16,
        duration: seconds,
        requests: [{ method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, setupRequest: (req) => {
          const item = items[seq++ % items.length];
          return { ...req, body: JSON.stringify({ content: `${item.text.slice(0, 16_000)} #${seq}`, kind: item.kind }) };
        } }],
      });
      out[label] = { rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99 };
      if (result.non2xx > 0) (out[label] as Record<string, number>).non2xx = result.non2xx;
    } finally {
      await gw.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return { ...out, ratio: Math.round((out['model_stage uncertain'].rps / out['no model'].rps) * 100) / 100 };
}
