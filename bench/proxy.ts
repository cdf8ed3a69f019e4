/**
 * npm run bench:proxy — one run, side by side, against a fast fake upstream on loopback: direct to the upstream,
 * through a bare @fastify/reply-from passthrough (the floor), and through Bastion with full inspection. For a 1 KB chat
 * request and a streamed response of 200 chunks: added latency p50/p99, time to first token, throughput at c=50, each
 * as a ratio to direct and to the passthrough. Writes bench/results/proxy-latest.json.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import autocannon from 'autocannon';
import { loadConfig } from '../src/config/load.js';
import { startGateway } from '../src/runtime.js';
import { createApiKey } from '../src/storage/api-keys.js';
import { ensureTenant } from '../src/storage/tenants.js';
import { timeRequests } from './lib/client.js';
import { startFakeOpenAI } from './lib/fake-openai.js';
import { startPassthrough } from './lib/passthrough.js';
import { percentile, round } from './lib/stats.js';

const SEQUENTIAL = Number(process.env.BENCH_N ?? 1500);
const STREAMS = Number(process.env.BENCH_STREAMS ?? 300);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
// BENCH_METRICS=0 measures Bastion with /metrics recording off (issue 15 asks what metrics cost).
const METRICS = process.env.BENCH_METRICS !== '0';

const prose = 'Please review the attached quarterly summary and list three risks for the Osaka expansion, with one sentence each. ';
// The system prompt repeats (as in real apps); the user message differs on every request, so each one is inspected.
let seq = 0;
const chat = (stream: boolean) => () =>
  JSON.stringify({ model: 'bench', stream, messages: [{ role: 'system', content: 'You are a concise analyst.' }, { role: 'user', content: `${prose.repeat(8).slice(0, 880)} (ref ${++seq})` }] });

const upstream = await startFakeOpenAI(200);
const passthrough = await startPassthrough(upstream.url);
const dir = mkdtempSync(join(tmpdir(), 'bastion-bench-'));
const config = loadConfig({}, { host: '127.0.0.1', port: 0, adminPort: 0, databaseUrl: `sqlite:${join(dir, 'b.db')}`, allowUnauthenticated: true, logLevel: 'warn', upstreamBaseUrl: upstream.url, metricsEnabled: METRICS });
const gw = await startGateway(config, new Writable({ write: (_c, _e, done) => done() }));
await ensureTenant(gw.services.storage.db, 'bench', 'enterprise');
const { key } = await createApiKey(gw.services.storage.db, { tenantId: 'bench', name: 'bench', ratePerMinute: 100_000_000, source: 'cli' });

const targets = {
  direct: { url: `${upstream.url}/v1/chat/completions`, headers: {} as Record<string, string> },
  passthrough: { url: `${passthrough.url}/v1/chat/completions`, headers: {} as Record<string, string> },
  bastion: { url: `http://127.0.0.1:${gw.ports.proxy}/v1/chat/completions`, headers: { 'x-api-key': key } },
};
type Name = keyof typeof targets;
const names = Object.keys(targets) as Name[];

const latency: Record<string, { p50: number; p99: number }> = {};
const ttft: Record<string, { p50: number; p99: number }> = {};
const rps: Record<string, number> = {};
for (const name of names) {
  const { url, headers } = targets[name];
  await timeRequests(url, headers, chat(false), 100); // warm-up
  const plain = await timeRequests(url, headers, chat(false), SEQUENTIAL);
  latency[name] = { p50: percentile(plain.total, 50), p99: percentile(plain.total, 99) };
  const streamed = await timeRequests(url, headers, chat(true), STREAMS);
  ttft[name] = { p50: percentile(streamed.ttfb, 50), p99: percentile(streamed.ttfb, 99) };
  const body = chat(false);
  const load = await autocannon({
    url, connections: 50, duration: SECONDS,
    requests: [{ method: 'POST', headers: { 'content-type': 'application/json', ...headers }, setupRequest: (req) => ({ ...req, body: body() }) }],
  });
  if (load.non2xx > 0) throw new Error(`${name}: ${load.non2xx} non-2xx under load`);
  rps[name] = Math.round(load.requests.average);
}

const added = (name: Name, base: Name, m: Record<string, { p50: number; p99: number }>) => ({
  p50: round(m[name].p50 - m[base].p50), p99: round(m[name].p99 - m[base].p99),
});
const report = {
  date: new Date().toISOString(),
  sequential_requests: SEQUENTIAL,
  metrics: METRICS,
  latency_ms: Object.fromEntries(names.map((n) => [n, { p50: round(latency[n].p50), p99: round(latency[n].p99) }])),
  added_latency_ms: { passthrough: added('passthrough', 'direct', latency), bastion: added('bastion', 'direct', latency), bastion_over_passthrough: added('bastion', 'passthrough', latency) },
  ttft_ms: Object.fromEntries(names.map((n) => [n, { p50: round(ttft[n].p50), p99: round(ttft[n].p99) }])),
  added_ttft_ms: { passthrough: round(ttft.passthrough.p50 - ttft.direct.p50), bastion: round(ttft.bastion.p50 - ttft.direct.p50), bastion_over_passthrough: round(ttft.bastion.p50 - ttft.passthrough.p50) },
  throughput_rps: rps,
  throughput_ratio: { passthrough_to_direct: round(rps.passthrough / rps.direct, 2), bastion_to_direct: round(rps.bastion / rps.direct, 2), bastion_to_passthrough: round(rps.bastion / rps.passthrough, 2) },
};
console.log(JSON.stringify(report, null, 2));
writeFileSync(new URL('./results/proxy-latest.json', import.meta.url), JSON.stringify(report, null, 2) + '\n');

await gw.close();
await passthrough.close();
upstream.server.close();
rmSync(dir, { recursive: true, force: true });
