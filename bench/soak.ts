/**
 * npm run bench:soak — memory under sustained mixed traffic (issue 10, defect 4).
 *
 * The gateway runs in this process (so process.memoryUsage() is the gateway's: its RSS includes the pool threads);
 * the fake upstream and the load generator run in a child process. Every SOAK_SAMPLE_S seconds it prints RSS, V8 heap,
 * external and ArrayBuffer memory and the requests answered since the last sample, by route and status. The goal is a
 * flat plateau: RSS growth over the last half of the run ≤ 5 %.
 *
 *   SOAK_SECONDS=600 (CI-free full run; 60 is a quick look)   SOAK_CONNECTIONS=32   SOAK_PROFILE=mixed|flood
 *   SOAK_IDLE_S=30 (idle tail after the load stops: does memory come back?)
 *
 * `npm run bench:soak` runs node with --expose-gc: each sample then also reports the live heap after a full collection
 * (the leak signal; RSS is read before that collection, so it shows what the process really held).
 *
 * Writes bench/results/soak-latest.json (the whole curve).
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { getHeapStatistics } from 'node:v8';
import { loadConfig } from '../src/config/load.js';
import { startGateway } from '../src/runtime.js';
import { createApiKey } from '../src/storage/api-keys.js';
import { ensureTenant } from '../src/storage/tenants.js';
import type { SoakTarget } from './lib/soak-load.js';
import { round } from './lib/stats.js';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const SAMPLE_S = Number(process.env.SOAK_SAMPLE_S ?? 10);
const IDLE_S = Number(process.env.SOAK_IDLE_S ?? 30);
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 32);
const PROFILE = (process.env.SOAK_PROFILE ?? 'mixed') as SoakTarget['profile'];
const MB = 1024 * 1024;

const load = fork(fileURLToPath(new URL('./lib/soak-load.ts', import.meta.url)), [], { execArgv: ['--import', 'tsx'] });
const next = <T>(pick: (m: Record<string, unknown>) => T | undefined) =>
  new Promise<T>((resolve) => {
    const on = (m: Record<string, unknown>) => {
      const v = pick(m);
      if (v !== undefined) {
        load.off('message', on);
        resolve(v);
      }
    };
    load.on('message', on);
  });
const upstreamUrl = await next((m) => m.upstream as string | undefined);

const dir = mkdtempSync(join(tmpdir(), 'bastion-soak-'));
const config = loadConfig({}, {
  host: '127.0.0.1', port: 0, adminPort: 0, databaseUrl: `sqlite:${join(dir, 'soak.db')}`, logLevel: 'warn',
  upstreamBaseUrl: upstreamUrl, masterKey: Buffer.alloc(32, 9), allowUnauthenticated: true,
});
const gw = await startGateway(config, new Writable({ write: (_c, _e, done) => done() }));
const db = gw.services.storage.db;
// Ten tenants with five keys each: per-key windows, key cache and per-tenant policies all see many entries.
const keys: string[] = [];
for (let t = 0; t < 10; t++) {
  await ensureTenant(db, `soak${t}`, 'enterprise');
  for (let k = 0; k < 5; k++) keys.push((await createApiKey(db, { tenantId: `soak${t}`, name: 'soak', ratePerMinute: 10_000_000, source: 'cli' })).key);
}
const adminUrl = `http://127.0.0.1:${gw.ports.admin}`;
const post = async (path: string, body: unknown) => {
  const res = await fetch(`${adminUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return res.json() as Promise<Record<string, unknown>>;
};
await post('/portal/auth/register', { email: 'soak@example.com', password: 'violet-Harbour-lantern-42' });
const portalToken = (await post('/portal/auth/login', { email: 'soak@example.com', password: 'violet-Harbour-lantern-42' })).access_token as string;

interface Sample {
  t: number;
  rss_mb: number;
  heap_used_mb: number;
  heap_total_mb: number;
  external_mb: number;
  array_buffers_mb: number;
  /** Main-thread heap right after a full collection (run with --expose-gc): what is really retained. A leak shows here. */
  live_heap_mb?: number;
  verdict_cache_mb: number;
  requests: number;
  non_2xx: number;
}
const samples: Sample[] = [];
const totals: Record<string, number> = {};
const t0 = Date.now();
const sample = async (loaded: boolean): Promise<void> => {
  const counts = loaded ? await (load.send({ report: true }), next((m) => m.counts as Record<string, number> | undefined)) : {};
  let requests = 0;
  let non2xx = 0;
  for (const [label, n] of Object.entries(counts)) {
    totals[label] = (totals[label] ?? 0) + n;
    requests += n;
    if (!label.endsWith(' 200')) non2xx += n;
  }
  const m = process.memoryUsage();
  const gc = (globalThis as { gc?: () => void }).gc;
  let live: number | undefined;
  if (gc) {
    gc();
    live = round(process.memoryUsage().heapUsed / MB, 1);
  }
  const s: Sample = {
    t: Math.round((Date.now() - t0) / 1000),
    rss_mb: round(m.rss / MB, 1), heap_used_mb: round(m.heapUsed / MB, 1), heap_total_mb: round(m.heapTotal / MB, 1),
    external_mb: round(m.external / MB, 1), array_buffers_mb: round(m.arrayBuffers / MB, 1), live_heap_mb: live,
    verdict_cache_mb: round(gw.services.verdictCache.usage().bytes / MB, 1), requests, non_2xx: non2xx,
  };
  samples.push(s);
  console.log(`t=${String(s.t).padStart(4)}s  rss ${s.rss_mb} MB  heap ${s.heap_used_mb}/${s.heap_total_mb} MB  live ${s.live_heap_mb ?? '-'} MB  cache ${s.verdict_cache_mb} MB  external ${s.external_mb} MB  ${requests} req (${non2xx} non-200)`);
};

await sample(false);
load.send({ start: { proxyUrl: `http://127.0.0.1:${gw.ports.proxy}`, adminUrl, keys, portalToken, connections: CONNECTIONS, profile: PROFILE } satisfies SoakTarget });
while (Date.now() - t0 < SECONDS * 1000) {
  await new Promise((r) => setTimeout(r, SAMPLE_S * 1000));
  await sample(true);
}
load.send({ stop: true });
const finalCounts = await next((m) => (m.stopped ? (m.counts as Record<string, number>) : undefined));
for (const [label, n] of Object.entries(finalCounts)) totals[label] = (totals[label] ?? 0) + n;
const loaded = samples.length;
for (let i = 0; i < Math.ceil(IDLE_S / SAMPLE_S); i++) {
  await new Promise((r) => setTimeout(r, SAMPLE_S * 1000));
  await sample(false);
}

// The plateau test: mean of the last minute of load against the mean of the first minute of the last half (single
// samples swing with every collection, so windows are compared).
const loadedSamples = samples.slice(1, loaded);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const half = loadedSamples.filter((s) => s.t >= SECONDS / 2 && s.t < SECONDS / 2 + 60);
const last = loadedSamples.filter((s) => s.t >= SECONDS - 60);
const growth = (pick: (s: Sample) => number | undefined) => {
  const [a, b] = [mean(half.map((s) => pick(s) ?? 0)), mean(last.map((s) => pick(s) ?? 0))];
  return a > 0 ? round(((b - a) / a) * 100, 1) : undefined;
};
const report = {
  date: new Date().toISOString(),
  seconds: SECONDS, profile: PROFILE, forced_gc_per_sample: typeof (globalThis as { gc?: unknown }).gc === 'function', connections: CONNECTIONS, workers: gw.services.inspector.threads,
  heap_limit_mb: round(getHeapStatistics().heap_size_limit / MB, 0),
  rss_mb: {
    start: samples[0].rss_mb, peak: Math.max(...samples.map((s) => s.rss_mb)), first_minute_of_last_half: round(mean(half.map((s) => s.rss_mb)), 1),
    last_minute: round(mean(last.map((s) => s.rss_mb)), 1), idle: samples[samples.length - 1].rss_mb,
  },
  rss_growth_last_half_pct: growth((s) => s.rss_mb),
  live_heap_growth_last_half_pct: growth((s) => s.live_heap_mb),
  requests: totals,
  samples,
};
console.log(JSON.stringify({ ...report, samples: undefined }, null, 2));
// Runs without --expose-gc (V8's own collection schedule only) are kept apart.
const forced = typeof (globalThis as { gc?: unknown }).gc === 'function';
writeFileSync(new URL(`./results/soak-${PROFILE}${forced ? '' : '-unforced'}-latest.json`, import.meta.url), JSON.stringify(report, null, 2) + '\n');
await gw.close();
rmSync(dir, { recursive: true, force: true });
