/**
 * npm run bench:model — the transformer model stage with random weights of real shapes (ONNX graphs built here:
 * bench/lib/transformer-graph.ts; no weights are downloaded):
 * 1. latency through the inspection pool of a 128- and a 512-token text that reaches the model (p50/p99), per shape;
 * 2. a 1 KB prompt the cascade does not send to the model, with and without a model configured;
 * 3. the share of dev-set texts that model_stage 'uncertain' sends to the model;
 * 4. /filter throughput over HTTP on the dev set's mix (every request a new text) with model_stage uncertain vs none;
 * 5. resident memory of a pool of N threads with and without the model.
 * Writes bench/results/model-latest.json.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Tokenizer } from '@huggingface/tokenizers';
import { LAYERS } from '../src/inspect/registry.js';
import { startLayers } from '../src/inspect/run-layers.js';
import type { Kind } from '../src/inspect/types.js';
import { shouldConsult } from '../src/models/stage.js';
import { createInspectorPool } from '../src/workers/pool.js';
import { percentile, round } from './lib/stats.js';
import { L12_384, MINILM_L6, transformerClassifier, type Shape } from './lib/transformer-graph.js';
import { measureMixThroughput } from './lib/model-throughput.js';

const TOKENIZER = fileURLToPath(new URL('../../shared/models/all-MiniLM-L6-v2-tokenizer/', import.meta.url));
const DEV = fileURLToPath(new URL('../../shared/eval/dev.jsonl', import.meta.url));
const THREADS = availableParallelism();
const work = mkdtempSync(join(tmpdir(), 'bastion-bench-model-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

function folder(name: string, shape: Shape): string {
  const dir = join(work, name);
  mkdirSync(join(dir, 'onnx'), { recursive: true });
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ id2label: { 0: 'LABEL_0', 1: 'LABEL_1' }, max_position_embeddings: shape.positions }));
  for (const f of ['tokenizer.json', 'tokenizer_config.json']) copyFileSync(join(TOKENIZER, f), join(dir, f));
  writeFileSync(join(dir, 'onnx', 'model.onnx'), transformerClassifier(shape));
  return dir;
}

const dev = readFileSync(DEV, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { text: string; kind: Kind; label: string });
const tokenizer = new Tokenizer(JSON.parse(readFileSync(join(TOKENIZER, 'tokenizer.json'), 'utf8')), {});
const benign = dev.filter((d) => d.label === 'benign' && d.kind === 'prompt').map((d) => d.text);
/** A benign text of exactly `tokens` tokens with its specials (one window). */
function textOfTokens(tokens: number, offset: number): string {
  const words = benign.slice(offset).join(' ').split(/\s+/);
  let lo = 1;
  let hi = words.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (tokenizer.encode(words.slice(0, mid).join(' ')).ids.length <= tokens) lo = mid;
    else hi = mid - 1;
  }
  return words.slice(0, lo).join(' ');
}

const report: Record<string, unknown> = { date: new Date().toISOString(), machine: { cpus: THREADS, note: 'shared 2-core machine, loaded by other work while measured' } };

// 3. Share of the dev set that reaches the model (no model needed: the cascade's own test).
const reached: Record<string, [number, number]> = {};
for (const d of dev) {
  const pending = startLayers({ content: d.text, kind: d.kind, policy: { modelStage: 'uncertain' } }, LAYERS);
  const r = (reached[d.kind] ??= [0, 0]);
  r[1]++;
  if (shouldConsult(pending.ctx, 'uncertain')) r[0]++;
}
const total = Object.values(reached).reduce((a, [x, n]) => [a[0] + x, a[1] + n], [0, 0]);
report.share = { overall: round(total[0] / total[1], 3), byKind: Object.fromEntries(Object.entries(reached).map(([k, [x, n]]) => [k, `${x}/${n}`])) };
console.log(`share of dev texts reaching the model (uncertain): ${(100 * total[0] / total[1]).toFixed(1)} % (${total[0]}/${total[1]})`, report.share);

// 1 + 2. Latency through the pool.
const latency: Record<string, Record<string, { p50: number; p99: number; modelP50: number }>> = {};
const shapes: [string, Shape][] = [['MiniLM-L6 int8', MINILM_L6], ['12x384 int8', L12_384]];
const folders: Record<string, string> = {};
for (const [name, shape] of shapes) {
  folders[name] = folder(name.replace(/\W+/g, '-'), shape);
  const pool = createInspectorPool({ threads: THREADS, maxQueue: 64, timeoutMs: 60_000, model: { model: folders[name], modelDir: '/', label: 'LABEL_1' } });
  await pool.warmUp();
  latency[name] = {};
  for (const [tokens, runs] of [[128, 60], [512, 20]] as const) {
    const text = textOfTokens(tokens - 4, tokens);
    const wall: number[] = [];
    const model: number[] = [];
    for (let i = 0; i < runs + 3; i++) {
      const t0 = performance.now();
      const [v] = await pool.inspect([{ content: `${text} ${i}`, kind: 'tool_result' }]);
      if (i < 3) continue; // warm-up
      wall.push(performance.now() - t0);
      model.push(v.timings_ms.model);
    }
    latency[name][`${tokens} tokens`] = { p50: round(percentile(wall, 50), 1), p99: round(percentile(wall, 99), 1), modelP50: round(percentile(model, 50), 1) };
  }
  await pool.close();
  console.log(name, latency[name]);
}
report.latency = latency;

const oneKb = Buffer.from(benign.join('\n')).subarray(0, 1024).toString('utf8').replace(/\uFFFD$/, '');
const plain: Record<string, { p50: number; p99: number }> = {};
for (const [label, model] of [['without model', undefined], ['with MiniLM-L6 int8', folders['MiniLM-L6 int8']]] as const) {
  const pool = createInspectorPool({ threads: THREADS, maxQueue: 64, timeoutMs: 60_000, ...(model ? { model: { model, modelDir: '/', label: 'LABEL_1' } } : {}) });
  await pool.warmUp();
  const totals: number[] = [];
  for (let i = 0; i < 400; i++) {
    const [v] = await pool.inspect([{ content: `${oneKb} ${i}`, kind: 'prompt', policy: { modelStage: 'uncertain' } }]);
    if (i >= 50) totals.push(v.timings_ms.total);
    if (v.layers?.model) throw new Error('the 1 KB benign prompt reached the model');
  }
  plain[label] = { p50: round(percentile(totals, 50), 3), p99: round(percentile(totals, 99), 3) };
  await pool.close();
}
report.oneKbPrompt = plain;
console.log('1 KB prompt not sent to the model, pipeline total ms', plain);

// 4. /filter throughput on the dev mix.
report.throughput = await measureMixThroughput(dev, folders['MiniLM-L6 int8']);
console.log('/filter throughput on the dev mix', report.throughput);

// 5. Memory.
const child = (args: string[]) => JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./lib/model-memory.ts', import.meta.url)), ...args], { encoding: 'utf8' }).trim().split('\n').at(-1)!) as { rssMb: number };
const memory: Record<string, number> = {};
for (const threads of [1, 2]) {
  memory[`${threads} thread(s), no model`] = child([String(threads)]).rssMb;
  memory[`${threads} thread(s), MiniLM-L6 int8`] = child([String(threads), folders['MiniLM-L6 int8']]).rssMb;
}
memory['per thread with MiniLM-L6 int8 (MB)'] = memory['2 thread(s), MiniLM-L6 int8'] - memory['1 thread(s), MiniLM-L6 int8'];
memory['per thread without model (MB)'] = memory['2 thread(s), no model'] - memory['1 thread(s), no model'];
report.memoryRssMb = memory;
console.log('resident memory (MB)', memory);

writeFileSync(new URL('./results/model-latest.json', import.meta.url), JSON.stringify(report, null, 2) + '\n');
console.log('\nwritten: bench/results/model-latest.json');
