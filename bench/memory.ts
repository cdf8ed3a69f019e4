/**
 * npm run bench:memory — the compiled gateway's resident memory (RSS of the whole process, all threads), each figure from
 * a fresh process: right after start (nothing served yet), after a 3 s /filter warm-up, and sampled every 250 ms under
 * BENCH_SECONDS of /filter load at c=50 with a new ~1 KB text per request (median and peak) — with two inspection
 * threads and with one (the difference is one thread's cost); BENCH_THREADS=4,2,1 picks the pool sizes. With
 * BENCH_BREAKDOWN=1 the gateway also reports its main thread's heap and external memory (process.memoryUsage) and the
 * process's resident memory by mapping (bench/lib/smaps.ts) at start and after the load. The gateway runs as the image
 * does (two malloc arenas; BENCH_MALLOC_ARENA_MAX=0 for glibc's default). No timed assertions: figures only.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { sampled, startServer, type BenchServer } from './lib/child.js';
import { residentByMapping } from './lib/smaps.js';
import { benignCorpus, textOfSize } from './lib/inputs.js';
import { percentile, round } from './lib/stats.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const corpus = benignCorpus(fileURLToPath(new URL('../../shared/eval/dev.jsonl', import.meta.url)));
const texts = Array.from({ length: 64 }, (_, i) => textOfSize(corpus, 1024, i * 5).slice(0, 1010));
let seq = 0;
const fresh = () => JSON.stringify({ content: `${texts[seq % texts.length]} #${++seq}`, kind: 'prompt' });

async function load(s: BenchServer, seconds: number): Promise<number> {
  const result = await autocannon({
    url: `${s.url}/filter`, connections: 50, duration: seconds,
    requests: [{ method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': s.info.key }, setupRequest: (req) => ({ ...req, body: fresh() }) }],
  });
  // Answers other than 2xx (a starved machine can push inspections past their deadline: 504) are reported, never hidden.
  const bad = result.non2xx + result.errors;
  if (bad > 0) process.stderr.write(`${bad} of ${result.requests.total} answers were not 2xx ${JSON.stringify(result.statusCodeStats)}\n`);
  return Math.round(result.requests.average);
}

/** The gateway's main-thread process.memoryUsage() and heap spaces, and the process's resident memory by mapping, when BENCH_BREAKDOWN=1. */
async function breakdown(s: BenchServer, file: string): Promise<unknown> {
  if (process.env.BENCH_BREAKDOWN !== '1') return undefined;
  rmSync(file, { force: true });
  process.kill(s.pid, 'SIGUSR2');
  for (let i = 0; i < 30 && !existsSync(file); i++) await sleep(100);
  return existsSync(file) ? { ...JSON.parse(readFileSync(file, 'utf8')), resident_by_mapping: residentByMapping(s.pid) } : undefined;
}


const upstream = await startServer(['upstream']);
const dir = mkdtempSync(join(tmpdir(), 'bastion-mem-'));

async function measure(workers: string) {
  const file = join(dir, `usage-${workers}.json`);
  const s = await startServer(['gateway', upstream.url, workers], process.env.BENCH_BREAKDOWN === '1' ? { BENCH_MEMORY_FILE: file } : {});
  await sleep(1000);
  const started = s.rssMb();
  const atStart = await breakdown(s, file);
  await load(s, 3);
  const warm = s.rssMb();
  const rss: number[] = [];
  const rps = await sampled(s, rss, () => load(s, SECONDS));
  const afterLoad = await breakdown(s, file);
  s.close();
  return {
    at_start: round(started, 0), after_warm_up: round(warm, 0), under_load_median: round(percentile(rss, 50), 0), under_load_peak: round(Math.max(...rss), 0), filter_rps: rps,
    ...(atStart ? { breakdown_mb: { at_start: atStart, after_load: afterLoad } } : {}),
  };
}

const threads = (process.env.BENCH_THREADS ?? '2,1').split(',').map((n) => n.trim()).filter(Boolean);
const byThreads: Record<string, Awaited<ReturnType<typeof measure>>> = {};
for (const n of threads) byThreads[n] = await measure(n);
upstream.close();
const name = (n: string) => (n === '1' ? 'one_worker' : n === '2' ? 'two_workers' : `${n}_workers`);
const report = {
  date: new Date().toISOString(),
  load: `/filter, c=50, new ~1 KB text per request, ${SECONDS} s`,
  rss_mb: {
    ...Object.fromEntries(threads.map((n) => [name(n), byThreads[n]])),
    ...(byThreads['1'] && byThreads['2'] ? { per_worker_after_warm_up: round(byThreads['2'].after_warm_up - byThreads['1'].after_warm_up, 0) } : {}),
  },
};
process.stdout.write(JSON.stringify(report, null, 2) + '\n');
process.exit(0);
