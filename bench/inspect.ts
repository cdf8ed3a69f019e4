/**
 * npm run bench:inspect — per-layer and total pipeline latency in-process for 256 B, 1 KB, 10 KB and 100 KB inputs
 * (p50/p99), then /filter throughput over HTTP with autocannon against a bare Fastify JSON endpoint measured in the
 * same run (the floor). Prints a table and writes bench/results/inspect-latest.json.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { inspect } from '../src/inspect/pipeline.js';
import { LAYER_NAMES } from '../src/inspect/types.js';
import { benignCorpus, textOfSize } from './lib/inputs.js';
import { percentile, round } from './lib/stats.js';
import { measureThroughput } from './lib/throughput.js';

const DEV = fileURLToPath(new URL('../../shared/eval/dev.jsonl', import.meta.url));
const SIZES: [string, number, number][] = [
  ['256 B', 256, 3000],
  ['1 KB', 1024, 3000],
  ['10 KB', 10 * 1024, 600],
  ['100 KB', 100 * 1024, 80],
];

const corpus = benignCorpus(DEV);
const latency: Record<string, Record<string, { p50: number; p99: number }>> = {};
for (const [label, bytes, runs] of SIZES) {
  const inputs = Array.from({ length: 16 }, (_, i) => textOfSize(corpus, bytes, i * 7));
  for (let i = 0; i < 50; i++) inspect({ content: inputs[i % inputs.length], kind: 'prompt' }); // warm the JIT
  const perLayer: Record<string, number[]> = {};
  for (let i = 0; i < runs; i++) {
    const v = inspect({ content: inputs[i % inputs.length], kind: 'prompt' });
    for (const [layer, ms] of Object.entries(v.timings_ms)) (perLayer[layer] ??= []).push(ms);
  }
  latency[label] = Object.fromEntries(
    Object.entries(perLayer).map(([layer, samples]) => [layer, { p50: round(percentile(samples, 50)), p99: round(percentile(samples, 99)) }]),
  );
}

console.log('\nPipeline latency in-process (ms, p50 / p99)\n');
console.log(['layer', ...SIZES.map((s) => s[0])].join('\t'));
for (const layer of [...LAYER_NAMES, 'total']) {
  console.log([layer, ...SIZES.map(([label]) => `${latency[label][layer]?.p50 ?? '-'} / ${latency[label][layer]?.p99 ?? '-'}`)].join('\t'));
}
const t1 = latency['1 KB'].total.p50;
const t100 = latency['100 KB'].total.p50;
console.log(`\nscaling: 100 KB / 1 KB p50 = ${round(t100 / t1, 1)}× for 100× the bytes`);

const throughput = await measureThroughput(textOfSize(corpus, 1024));
console.log('\n/filter throughput over HTTP, 1 KB content, autocannon c=50\n');
console.log(`bare Fastify JSON endpoint (floor): ${throughput.floor.rps} req/s, p50 ${throughput.floor.p50} ms, p99 ${throughput.floor.p99} ms`);
console.log(`Bastion /filter (full inspection):  ${throughput.bastion.rps} req/s, p50 ${throughput.bastion.p50} ms, p99 ${throughput.bastion.p99} ms`);
console.log(`ratio to floor: ${round(throughput.bastion.rps / throughput.floor.rps, 2)}`);

const report = { date: new Date().toISOString(), machine: { cpus: (await import('node:os')).cpus().length }, latency, throughput };
writeFileSync(new URL('./results/inspect-latest.json', import.meta.url), JSON.stringify(report, null, 2) + '\n');
console.log('\nwritten: bench/results/inspect-latest.json');
