/**
 * npm run bench:impact — what one poll of GET /tenant/impact costs on a tenant with 90 days of recorded traffic
 * (SQLite, embedded mode), over a keep-alive socket: p50/p99 of a full answer (period=90 and the default 30), of a
 * 304 revalidation, and of the admin listener's trivial /livez measured in the same run as the floor. Target: < 2 ms p50.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { loadConfig } from '../src/config/load.js';
import { startGateway } from '../src/runtime.js';
import { createApiKey } from '../src/storage/api-keys.js';
import { recordVerdicts, type StatVerdict } from '../src/storage/daily-stats.js';
import { ensureTenant } from '../src/storage/tenants.js';
import { percentile, round } from './lib/stats.js';

const DAY = 86_400_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 2000);
const dir = mkdtempSync(join(tmpdir(), 'bastion-bench-'));
const config = loadConfig({}, {
  host: '127.0.0.1', port: 0, adminPort: 0, logLevel: 'warn', workers: 1, evolutionEnabled: false,
  databaseUrl: `sqlite:${join(dir, 'bench.db')}`, allowUnauthenticated: true,
});
const gateway = await startGateway(config);
const db = gateway.services.storage.db;
await ensureTenant(db, 'bench', 'professional');
const { key } = await createApiKey(db, { tenantId: 'bench', name: 'bench', ratePerMinute: 1_000_000, source: 'cli' });

// 90 days, each with a mix of verdicts raising flags of every attributed layer/category.
const verdicts: StatVerdict[] = [
  { allowed: true, risk_level: 'LOW', action: 'allow', flags: [], secrets: [] },
  { allowed: false, risk_level: 'HIGH', action: 'block', flags: [{ layer: 'semantic', type: 'prompt_injection', score: 0.9, category: 'injection' }, { layer: 'obfuscation', type: 'encoded_payload', score: 0.5, category: 'obfuscation' }], secrets: [] },
  { allowed: true, risk_level: 'MEDIUM', action: 'redact', flags: [{ layer: 'secrets', type: 'aws_access_key', score: 0.6, category: 'exfiltration' }], secrets: [{ type: 'aws_access_key', start: 0, end: 20 }, { type: 'email', start: 21, end: 30, pii: true }] },
  { allowed: false, risk_level: 'HIGH', action: 'block', flags: [{ layer: 'phishing', type: 'phishing_url', score: 0.9, category: 'social_engineering' }, { layer: 'topology', type: 'token_flood', score: 0.5, category: 'anomaly' }], secrets: [] },
  { allowed: false, risk_level: 'BLOCK', action: 'block', flags: [{ layer: 'ers', type: 'shadow_banned', score: 0 }], secrets: [], ers: { shadow_banned: true } },
];
const now = Date.now();
for (let d = 0; d < 90; d++) await recordVerdicts(db, 'bench', Array.from({ length: 50 }, (_, i) => verdicts[(i + d) % verdicts.length]), now - d * DAY);

const pool = new Pool(`http://127.0.0.1:${gateway.ports.admin}`, { connections: 1 });
async function measure(path: string, headers: Record<string, string>, expect: number): Promise<{ p50: number; p99: number }> {
  const once = async () => {
    const t0 = process.hrtime.bigint();
    const res = await pool.request({ method: 'GET', path, headers });
    await res.body.dump();
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (res.statusCode !== expect) throw new Error(`${path}: ${res.statusCode}`);
    return ms;
  };
  for (let i = 0; i < 200; i++) await once(); // warm the JIT, the statement cache and the connection
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) samples.push(await once());
  return { p50: round(percentile(samples, 50)), p99: round(percentile(samples, 99)) };
}

const auth = { 'x-api-key': key };
const etag = (await (await pool.request({ method: 'GET', path: '/tenant/impact?period=90', headers: auth })).headers.etag) as string;
const results = {
  'GET /livez (floor)': await measure('/livez', {}, 200),
  'GET /tenant/impact?period=90': await measure('/tenant/impact?period=90', auth, 200),
  'GET /tenant/impact (30 days)': await measure('/tenant/impact', auth, 200),
  'GET /tenant/impact?period=90, If-None-Match → 304': await measure('/tenant/impact?period=90', { ...auth, 'if-none-match': etag }, 304),
};
const floor = results['GET /livez (floor)'].p50;
console.log(`\nTenant impact poll, 90 days of data, SQLite, ${RUNS} sequential requests each (ms)\n`);
for (const [name, r] of Object.entries(results)) console.log(`${name.padEnd(52)} p50 ${String(r.p50).padStart(6)}  p99 ${String(r.p99).padStart(6)}  ×${round(r.p50 / floor)} floor`);
await pool.close();
await gateway.close();
rmSync(dir, { recursive: true, force: true });
