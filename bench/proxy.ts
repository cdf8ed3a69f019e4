/**
 * npm run bench:proxy — one run, side by side, each target in its own process on loopback and every other target paused
 * (SIGSTOP) while one is measured; the load generator is this process.
 *
 * Chat (1 KB body: a short system message + ~1 KB of user prose) against a fast fake upstream: direct, through a bare
 * @fastify/reply-from passthrough, through the inspecting floor (../shared/bench/floor-inspect-proxy.mjs: the least any
 * inspecting proxy on this stack does per request) and through Bastion with full inspection — added latency p50/p99 over
 * direct, time to first token and the total of a 200-chunk burst stream, first-token and whole-stream p50/p90 over
 * 100 interleaved streams each of a stream paced like a model (40 content events 20 ms apart) and of the burst, and
 * throughput at c=50 with the same body on every request and
 * with a new user message per request (median of BENCH_ROUNDS rounds, the targets' order rotating).
 * The Anthropic row: the same body and answer on /v1/messages (the fake upstream speaks the Messages API too), direct
 * and through Bastion, measured in the same sequential loop as chat; its added latency and stream cost are reported
 * next to chat's and as the difference from them.
 * /filter (1 KB text) at c=50, a different text per request (median of BENCH_ROUNDS rounds) and one repeated text,
 * against a bare Fastify JSON route;
 * how the two cores split between Bastion's main thread, its other threads (inspection workers) and the load generator;
 * Bastion's RSS under steady load and the cost of one inspection worker. Bastion runs compiled (npm run build, done
 * first by the npm script), as it ships; its RSS after a warm-up when run from the sources through tsx is printed next to it.
 * Writes bench/results/proxy-latest.json.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { cpuSince, sampled, startFloor, startServer, type BenchServer } from './lib/child.js';
import { timeRequests } from './lib/client.js';
import { interleavedStreams, over, spread, type StreamSamples } from './lib/first-token.js';
import { benignCorpus, textOfSize } from './lib/inputs.js';
import { percentile, round } from './lib/stats.js';

const SEQUENTIAL = Number(process.env.BENCH_N ?? 2000);
const STREAMS = Number(process.env.BENCH_STREAMS ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const prose = 'Please review the attached quarterly summary and list three risks for the Osaka expansion, with one sentence each. ';
const userText = prose.repeat(9).slice(0, 1000);
const chatBody = (stream: boolean, user: string) => JSON.stringify({ model: 'bench', stream, messages: [{ role: 'system', content: 'You are a concise analyst.' }, { role: 'user', content: user }] });
let seq = 0;
const bodies = {
  same: () => chatBody(false, userText),
  fresh: () => chatBody(false, `${userText.slice(0, 988)} (ref ${++seq})`),
};
// /filter texts: 64 different 1 KB windows of the benign dev prompts (prose, code questions, links), each request
// another window with its own counter, so neither the verdict cache nor any per-URL memo sees the same text twice.
const corpus = benignCorpus(fileURLToPath(new URL('../../shared/eval/dev.jsonl', import.meta.url)));
const filterTexts = Array.from({ length: 64 }, (_, i) => textOfSize(corpus, 1024, i * 5).slice(0, 1010));
const filterText = filterTexts[0];
const filterBodies = {
  same: () => JSON.stringify({ content: filterText, kind: 'prompt' }),
  fresh: () => JSON.stringify({ content: `${filterTexts[seq % filterTexts.length]} #${++seq}`, kind: 'prompt' }),
};
type BodyCase = keyof typeof bodies;
const messagesBody = (stream: boolean, user: string) => JSON.stringify({ model: 'bench', max_tokens: 256, stream, system: 'You are a concise analyst.', messages: [{ role: 'user', content: user }] });

const upstream = await startServer(['upstream']);
const servers = {
  passthrough: await startServer(['passthrough', upstream.url]),
  floor: await startFloor(upstream.url),
  bastion: await startServer(['gateway', upstream.url, '2']),
  bare: await startServer(['bare-json']),
};
const key = { 'x-api-key': servers.bastion.info.key };
const chatTargets = {
  direct: { url: `${upstream.url}/v1/chat/completions`, headers: {} },
  passthrough: { url: `${servers.passthrough.url}/v1/chat/completions`, headers: {} },
  floor: { url: `${servers.floor.url}/v1/chat/completions`, headers: {} },
  bastion: { url: `${servers.bastion.url}/v1/chat/completions`, headers: key },
};
type Target = keyof typeof chatTargets;
const targets = Object.keys(chatTargets) as Target[];

/** Only `name` (and the upstream) may run. */
function only(name: keyof typeof servers | 'direct'): void {
  for (const [n, s] of Object.entries(servers)) (n === name ? s.resume : s.pause)();
}
const serverOf = (t: Target): keyof typeof servers | 'direct' => t;

// Answers other than 2xx per phase: a loaded machine can push inspections past their deadline (504, failing closed);
// they are reported, never hidden, and a phase with more than 1 % of them is marked.
const failures: Record<string, { non2xx: number; total: number; codes: unknown }> = {};
async function load(url: string, headers: Record<string, string>, body: () => string, seconds = SECONDS, phase = url): Promise<number> {
  const result = await autocannon({
    url, connections: 50, duration: seconds,
    requests: [{ method: 'POST', headers: { 'content-type': 'application/json', ...headers }, setupRequest: (req) => ({ ...req, body: body() }) }],
  });
  const bad = result.non2xx + result.errors;
  if (bad > 0) {
    failures[phase] = { non2xx: bad, total: result.requests.total, codes: result.statusCodeStats };
    process.stderr.write(`${phase}: ${bad} of ${result.requests.total} answers were not 2xx ${JSON.stringify(result.statusCodeStats)}\n`);
  }
  return Math.round(result.requests.average);
}


const median = (xs: number[]) => percentile(xs, 50);
const rss: number[] = [];

// Latency, time to first token and stream total: sequential requests over one keep-alive connection.
const latency = {} as Record<Target, { p50: number; p99: number }>;
const streams = {} as Record<Target, { ttft: number; total: number }>;
const anthropicTargets = {
  direct: { url: `${upstream.url}/v1/messages`, headers: {} },
  bastion: { url: `${servers.bastion.url}/v1/messages`, headers: { 'x-bastion-key': servers.bastion.info.key } },
};
type AnthropicTarget = keyof typeof anthropicTargets;
const anthropicLatency = {} as Record<AnthropicTarget, { p50: number; p99: number }>;
const anthropicStreams = {} as Record<AnthropicTarget, { ttft: number; total: number }>;
for (const t of targets) {
  only(serverOf(t));
  const { url, headers } = chatTargets[t];
  await timeRequests(url, headers, bodies.fresh, 200); // warm-up
  const plain = await timeRequests(url, headers, bodies.same, SEQUENTIAL);
  latency[t] = { p50: percentile(plain.total, 50), p99: percentile(plain.total, 99) };
  const streamed = await timeRequests(url, headers, () => chatBody(true, userText), STREAMS);
  streams[t] = { ttft: median(streamed.ttfb), total: median(streamed.total) };
  if (t === 'passthrough' || t === 'floor') continue;
  // The Anthropic row, right after chat's on the same target: the same text and answer on /v1/messages.
  const a = anthropicTargets[t];
  await timeRequests(a.url, a.headers, () => messagesBody(false, `${userText.slice(0, 988)} (ref ${++seq})`), 200); // warm-up
  const aPlain = await timeRequests(a.url, a.headers, () => messagesBody(false, userText), SEQUENTIAL);
  anthropicLatency[t] = { p50: percentile(aPlain.total, 50), p99: percentile(aPlain.total, 99) };
  const aStreamed = await timeRequests(a.url, a.headers, () => messagesBody(true, userText), STREAMS);
  anthropicStreams[t] = { ttft: median(aStreamed.ttfb), total: median(aStreamed.total) };
}
// Streams as a user meets them, direct, through the floor and through Bastion interleaved (one of each per round in a
// rotating order, after 5 warm-up rounds), BENCH_FIRST_TOKEN_ROUNDS (100) of each, reported as p50 and p90: a stream
// paced like a model (BENCH_PACED_N content events BENCH_PACED_GAP ms apart, after a role event sent at once) — how a
// user's tokens arrive — and the 200-event burst, whose first token can wait behind the relay's work on the rest.
const PACED_GAP = Number(process.env.BENCH_PACED_GAP ?? 20);
const PACED_N = Number(process.env.BENCH_PACED_N ?? 40);
const FIRST_TOKEN_ROUNDS = Number(process.env.BENCH_FIRST_TOKEN_ROUNDS ?? 100);
const pacedBody = JSON.stringify({ model: 'bench', stream: true, bench_pace: [PACED_GAP, PACED_N], messages: [{ role: 'user', content: 'Tell me a short story about a fox.' }] });
const streamTargets = (['direct', 'floor', 'bastion'] as const).map((name) => ({ name, ...chatTargets[name] }));
for (const [n, s] of Object.entries(servers)) (n === 'floor' || n === 'bastion' ? s.resume : s.pause)();
const paced = await interleavedStreams(streamTargets, pacedBody, FIRST_TOKEN_ROUNDS, 5, PACED_N);
const burst = await interleavedStreams(streamTargets, chatBody(true, userText), FIRST_TOKEN_ROUNDS, 5);
const firstTokens = (samples: Record<string, StreamSamples>) => ({
  first_token_ms: Object.fromEntries(streamTargets.map((t) => [t.name, spread(samples[t.name].first)])),
  whole_stream_ms: Object.fromEntries(streamTargets.map((t) => [t.name, spread(samples[t.name].total)])),
  bastion_over_inspecting_floor_ms: { first_token: over(samples.bastion.first, samples.floor.first), whole_stream: over(samples.bastion.total, samples.floor.total) },
});

const anthropicAdded = { p50: anthropicLatency.bastion.p50 - anthropicLatency.direct.p50, p99: anthropicLatency.bastion.p99 - anthropicLatency.direct.p99 };
const anthropicStreamAdded = { ttft: anthropicStreams.bastion.ttft - anthropicStreams.direct.ttft, total: anthropicStreams.bastion.total - anthropicStreams.direct.total };
const anthropicRow = {
  latency_ms: { direct: { p50: round(anthropicLatency.direct.p50), p99: round(anthropicLatency.direct.p99) }, bastion: { p50: round(anthropicLatency.bastion.p50), p99: round(anthropicLatency.bastion.p99) } },
  added_latency_ms: { p50: round(anthropicAdded.p50), p99: round(anthropicAdded.p99) },
  added_stream_ms: { ttft: round(anthropicStreamAdded.ttft), total: round(anthropicStreamAdded.total) },
  // Target: within 0.2 ms of chat's added latency and stream cost, measured in the same run.
  minus_chat_ms: {
    added_p50: round(anthropicAdded.p50 - (latency.bastion.p50 - latency.direct.p50)),
    added_stream_total: round(anthropicStreamAdded.total - (streams.bastion.total - streams.direct.total)),
  },
};

// Throughput at c=50, both body cases, median of the rounds.
const rounds = Object.fromEntries(targets.map((t) => [t, { same: [] as number[], fresh: [] as number[] }])) as Record<Target, Record<BodyCase, number[]>>;
for (let r = 0; r < ROUNDS; r++) {
  // The order rotates from round to round, so no target always runs first (or right after the same other one).
  for (let k = 0; k < targets.length; k++) {
    const t = targets[(r + k) % targets.length];
    only(serverOf(t));
    const { url, headers } = chatTargets[t];
    for (const c of ['same', 'fresh'] as BodyCase[]) {
      const work = () => load(url, headers, bodies[c], SECONDS, `${t} chat ${c} round ${r + 1}`);
      rounds[t][c].push(t === 'bastion' ? await sampled(servers.bastion, rss, work) : await work());
    }
  }
}
const rps = Object.fromEntries(targets.map((t) => [t, { same: median(rounds[t].same), fresh: median(rounds[t].fresh) }])) as Record<Target, Record<BodyCase, number>>;

// /filter against a bare Fastify JSON route, and how the cores split during the different-text run.
const filter = { bare: { same: 0, fresh: 0 }, bastion: { same: 0, fresh: 0 } };
only('bare');
filter.bare.fresh = await load(`${servers.bare.url}/filter`, {}, filterBodies.fresh, SECONDS, 'bare filter new text');
filter.bare.same = await load(`${servers.bare.url}/filter`, {}, filterBodies.same, SECONDS, 'bare filter same text');
only('bastion');
const cpu0 = servers.bastion.cpu();
const gen0 = process.cpuUsage();
const t0 = performance.now();
const filterRounds = [await sampled(servers.bastion, rss, () => load(`${servers.bastion.url}/filter`, key, filterBodies.fresh, SECONDS, 'bastion filter new text'))];
const wall = (performance.now() - t0) / 1000;
const cpu1 = servers.bastion.cpu();
const gen1 = process.cpuUsage(gen0);
filter.bastion.same = await sampled(servers.bastion, rss, () => load(`${servers.bastion.url}/filter`, key, filterBodies.same, SECONDS, 'bastion filter same text'));
// New texts are bound by the inspection threads and vary from run to run more than the others: median of the rounds
// (the later rounds run after the memory samples, which cover the same phases as a single round did).
for (let r = 1; r < ROUNDS; r++) filterRounds.push(await load(`${servers.bastion.url}/filter`, key, filterBodies.fresh, SECONDS, 'bastion filter new text'));
filter.bastion.fresh = median(filterRounds);
const share = (seconds: number) => round(seconds / wall, 2); // cores busy on average (2 = both)
const used = cpuSince(cpu0, cpu1, servers.bastion.pid);
const cores = { bastion_main_thread: share(used.main), bastion_other_threads: share(used.other), load_generator: share((gen1.user + gen1.system) / 1e6) };

// Memory after the same 3 s warm-up, each gateway in a fresh process (the measured one has been under load for
// minutes, so its caches are full): two workers, one worker (the difference is one inspection thread's cost), and
// two workers run from the TypeScript sources through tsx (a checkout without `npm run build`).
const warm = async (s: BenchServer) => load(`${s.url}/filter`, { 'x-api-key': s.info.key }, filterBodies.fresh, 3, `warm-up ${s.pid}`);
servers.bastion.pause();
async function warmRss(workers: string, env: Record<string, string> = {}): Promise<number> {
  const fresh = await startServer(['gateway', upstream.url, workers], env);
  await warm(fresh);
  const mb = fresh.rssMb();
  fresh.close();
  return mb;
}
const idleTwo = await warmRss('2');
const idleOne = await warmRss('1');
const idleTsx = await warmRss('2', { BENCH_SOURCE: 'tsx' });

const added = (m: Record<Target, { p50: number; p99: number }>, t: Target) => ({ p50: round(m[t].p50 - m.direct.p50), p99: round(m[t].p99 - m.direct.p99) });
const report = {
  date: new Date().toISOString(),
  non_2xx_under_load: failures,
  settings: { sequential: SEQUENTIAL, streams: STREAMS, seconds: SECONDS, rounds: ROUNDS, metrics: process.env.BENCH_METRICS !== '0' },
  latency_ms: Object.fromEntries(targets.map((t) => [t, { p50: round(latency[t].p50), p99: round(latency[t].p99) }])),
  added_latency_ms: { passthrough: added(latency, 'passthrough'), floor: added(latency, 'floor'), bastion: added(latency, 'bastion') },
  stream_200_chunks_ms: Object.fromEntries(targets.map((t) => [t, { ttft: round(streams[t].ttft), total: round(streams[t].total) }])),
  added_stream_ms: Object.fromEntries((['passthrough', 'floor', 'bastion'] as Target[]).map((t) => [t, { ttft: round(streams[t].ttft - streams.direct.ttft), total: round(streams[t].total - streams.direct.total) }])),
  paced_stream: { settings: { events: PACED_N, gap_ms: PACED_GAP, rounds: FIRST_TOKEN_ROUNDS }, ...firstTokens(paced) },
  burst_stream_interleaved: { settings: { events: 200, rounds: FIRST_TOKEN_ROUNDS }, ...firstTokens(burst) },
  anthropic_messages: anthropicRow,
  bastion_over_passthrough_stream_ms: { ttft: round(streams.bastion.ttft - streams.passthrough.ttft), total: round(streams.bastion.total - streams.passthrough.total) },
  bastion_over_inspecting_floor_stream_ms: { ttft: round(streams.bastion.ttft - streams.floor.ttft), total: round(streams.bastion.total - streams.floor.total) },
  throughput_rps: rps,
  throughput_rounds: rounds,
  bastion_to_passthrough: { same_body: round(rps.bastion.same / rps.passthrough.same, 2), new_message: round(rps.bastion.fresh / rps.passthrough.fresh, 2) },
  bastion_to_inspecting_floor: { same_body: round(rps.bastion.same / rps.floor.same, 2), new_message: round(rps.bastion.fresh / rps.floor.fresh, 2) },
  filter_rps: filter,
  filter_new_text_rounds: filterRounds,
  filter_ratio: { new_text_to_bare: round(filter.bastion.fresh / filter.bare.fresh, 2), repeated_text_to_bare: round(filter.bastion.same / filter.bare.same, 2) },
  cores_during_filter_new_text: cores,
  bastion_rss_mb: { steady_median: round(median(rss), 0), peak: round(Math.max(...rss), 0), after_warm_up_two_workers: round(idleTwo, 0), after_warm_up_one_worker: round(idleOne, 0), per_worker: round(idleTwo - idleOne, 0), after_warm_up_two_workers_run_through_tsx: round(idleTsx, 0) },
};
console.log(JSON.stringify(report, null, 2));
writeFileSync(new URL('./results/proxy-latest.json', import.meta.url), JSON.stringify(report, null, 2) + '\n');

for (const s of [...Object.values(servers), upstream]) s.close();
