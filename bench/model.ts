/**
 * npm run bench:model — the transformer model stage with random weights of real shapes (ONNX graphs built here:
 * bench/lib/transformer-graph.ts; no weights are downloaded):
 * 1. what model_stage 'uncertain' sends to the model on the dev set, per kind, and the tool-result band table;
 * 2. latency through the inspection pool of a 128- and a 512-token text that reaches the model (p50/p99);
 * 3. batching: the same texts scored one by one and in one batch, in alternating rounds;
 * 4. a 1 KB prompt the cascade does not send to the model, with and without a model, in alternating blocks;
 * 5. /filter throughput over HTTP on the dev set's mix (every request a new text), uncertain vs no model, twice;
 * 6. resident memory of a pool of 1 and 2 threads without a model and with each listed model's shape, int8 and fp32.
 * Every comparison is between runs interleaved in the same minutes (the machine is shared). Writes
 * bench/results/model-latest.json. BENCH_MODEL_SKIP_LARGE=1 leaves out the DeBERTa-base-sized fp32 graphs.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Tokenizer } from '@huggingface/tokenizers';
import catalogue from '../config/models.json' with { type: 'json' };
import type { Kind } from '../src/inspect/types.js';
import { loadModel } from '../src/models/runtime.js';
import { createInspectorPool } from '../src/workers/pool.js';
import { shareOfDev } from './lib/model-share.js';
import { measureMixThroughput } from './lib/model-throughput.js';
import { percentile, round } from './lib/stats.js';
import { listedShape, MINILM_L6, transformerClassifier, type Shape } from './lib/transformer-graph.js';

const TOKENIZER = fileURLToPath(new URL('../../shared/models/all-MiniLM-L6-v2-tokenizer/', import.meta.url));
const DEV = fileURLToPath(new URL('../../shared/eval/dev.jsonl', import.meta.url));
const THREADS = 2;
const work = mkdtempSync(join(tmpdir(), 'bastion-bench-model-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

/** A model folder with a graph of `shape` (MiniLM's WordPiece tokenizer for every shape: ids fit every vocabulary). */
function folder(name: string, shape: Shape): string {
  const dir = join(work, name.replace(/\W+/g, '-'));
  mkdirSync(join(dir, 'onnx'), { recursive: true });
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ id2label: { 0: 'LABEL_0', 1: 'LABEL_1' }, max_position_embeddings: shape.positions }));
  for (const f of ['tokenizer.json', 'tokenizer_config.json']) copyFileSync(join(TOKENIZER, f), join(dir, f));
  writeFileSync(join(dir, 'onnx', 'model.onnx'), transformerClassifier(shape));
  return dir;
}
const settings = (dir: string) => ({ model: dir, modelDir: '/', label: 'LABEL_1' });

const dev = readFileSync(DEV, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { text: string; kind: Kind; label: string });
const tokenizer = new Tokenizer(JSON.parse(readFileSync(join(TOKENIZER, 'tokenizer.json'), 'utf8')), {});
const benign = dev.filter((d) => d.label === 'benign' && d.kind === 'prompt').map((d) => d.text);
/** A benign text of at most `tokens` tokens with its specials (one window). */
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
const load = () => loadavg()[0].toFixed(1);
const report: Record<string, unknown> = { date: new Date().toISOString(), machine: { cpus: availableParallelism(), threads: THREADS, note: 'shared 2-core machine, loaded by other work while measured', loadAtStart: load() } };

// 1. What reaches the model.
report.share = shareOfDev(dev);
console.log('dev texts reaching the model (uncertain)', report.share);

const MINI = folder('MiniLM-L6 int8', MINILM_L6);

// 2. Latency through the pool.
const latency: Record<string, Record<string, { p50: number; p99: number; modelP50: number }>> = {};
const base = catalogue.models['protectai/deberta-v3-base-prompt-injection-v2'].shape;
const DEBERTA_INT8 = folder('DeBERTa-v3-base int8', listedShape(base, true));
for (const [name, dir] of [['MiniLM-L6 int8', MINI], ['DeBERTa-v3-base-sized int8', DEBERTA_INT8]] as const) {
  const pool = createInspectorPool({ threads: THREADS, maxQueue: 64, timeoutMs: 60_000, model: settings(dir) });
  await pool.warmUp();
  latency[name] = {};
  for (const [tokens, runs] of [[128, 40], [512, 12]] as const) {
    const text = textOfTokens(tokens - 4, tokens);
    const wall: number[] = [];
    const model: number[] = [];
    for (let i = 0; i < runs + 3; i++) {
      const t0 = performance.now();
      const [v] = await pool.inspect([{ content: `${text} ${i}`, kind: 'prompt', policy: { modelStage: 'all' } }]);
      if (i < 3) continue;
      wall.push(performance.now() - t0);
      model.push(v.timings_ms.model);
    }
    latency[name][`${tokens} tokens`] = { p50: round(percentile(wall, 50), 1), p99: round(percentile(wall, 99), 1), modelP50: round(percentile(model, 50), 1) };
  }
  await pool.close();
  console.log(name, latency[name]);
}
report.latency = latency;

// 3. Batching: 16 texts one by one vs in one batch, in alternating rounds, in this process (one intra-op thread).
const batching: Record<string, unknown> = {};
{
  const model = await loadModel(settings(MINI));
  const sets: Record<string, string[]> = {
    '16 × 128 tokens': Array.from({ length: 16 }, (_, i) => textOfTokens(124, i * 3)),
    '16 mixed (24–256 tokens)': Array.from({ length: 16 }, (_, i) => textOfTokens(24 + ((i * 37) % 232), i * 5)),
  };
  for (const [name, texts] of Object.entries(sets)) {
    const alone: number[] = [];
    const together: number[] = [];
    for (let round_ = 0; round_ < 6; round_++) {
      let t0 = performance.now();
      for (const text of texts) await model.scoreMany([[text]]);
      if (round_ > 0) alone.push((performance.now() - t0) / texts.length);
      t0 = performance.now();
      await model.scoreMany(texts.map((text) => [text]));
      if (round_ > 0) together.push((performance.now() - t0) / texts.length);
    }
    const a = percentile(alone, 50);
    const b = percentile(together, 50);
    batching[name] = { msPerTextAlone: round(a, 2), msPerTextBatched: round(b, 2), gain: round(a / b, 2) };
  }
  await model.release();
}
report.batching = batching;
console.log('batching (MiniLM-L6 int8, median of 5 alternating rounds)', batching);

// 4. A 1 KB prompt the cascade does not send, with and without a model: both pools up, alternating blocks.
const oneKb = Buffer.from(benign.join('\n')).subarray(0, 1024).toString('utf8').replace(/\uFFFD$/, '');
{
  const pools = { 'without model': createInspectorPool({ threads: THREADS, maxQueue: 64, timeoutMs: 60_000 }), 'with MiniLM-L6 int8': createInspectorPool({ threads: THREADS, maxQueue: 64, timeoutMs: 60_000, model: settings(MINI) }) };
  await Promise.all(Object.values(pools).map((p) => p.warmUp()));
  const totals: Record<string, number[]> = { 'without model': [], 'with MiniLM-L6 int8': [] };
  for (let block = 0; block < 8; block++) {
    for (const [label, pool] of Object.entries(pools)) {
      for (let i = 0; i < 60; i++) {
        const [v] = await pool.inspect([{ content: `${oneKb} ${block}-${i}`, kind: 'prompt', policy: { modelStage: 'uncertain' } }]);
        if (v.layers?.model) throw new Error('the 1 KB benign prompt reached the model');
        if (block > 0) totals[label].push(v.timings_ms.total);
      }
    }
  }
  await Promise.all(Object.values(pools).map((p) => p.close()));
  const plain = Object.fromEntries(Object.entries(totals).map(([k, v]) => [k, { p50: round(percentile(v, 50), 3), p99: round(percentile(v, 99), 3) }]));
  report.oneKbPrompt = { ...plain, p50Difference: round(plain['with MiniLM-L6 int8'].p50 - plain['without model'].p50, 3) };
  console.log('1 KB prompt not sent to the model, pipeline total ms (alternating blocks)', report.oneKbPrompt);
}

// 5. /filter throughput on the dev mix: two pairs, each no model then uncertain, back to back.
report.throughput = [await measureMixThroughput(dev, MINI, 8), await measureMixThroughput(dev, MINI, 8)];
console.log('/filter throughput on the dev mix (two interleaved pairs)', report.throughput, `load ${load()}`);

// 6. Memory: one child process per configuration (RSS never shrinks back reliably in the process that measured).
const save = () => writeFileSync(new URL('./results/model-latest.json', import.meta.url), JSON.stringify(report, null, 2) + '\n');
save();
const child = (args: string[]) => JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./lib/model-memory.ts', import.meta.url)), ...args], { encoding: 'utf8', maxBuffer: 1 << 20 }).trim().split('\n').at(-1)!) as { rssMb: number };
const shapes: [string, () => string][] = [['MiniLM-L6 int8', () => MINI], ['MiniLM-L6 fp32', () => folder('MiniLM-L6 fp32', { ...MINILM_L6, int8: false })]];
const estimates: Record<string, string> = {};
for (const [repo, entry] of Object.entries(catalogue.models)) {
  const short = repo.split('/')[1];
  // mDeBERTa's 251,000 × 768 table is more than this process can build as a graph: its cost is DeBERTa-v3-base's plus
  // the larger table (one byte a weight int8, four fp32), estimated rather than measured.
  if (entry.shape.vocab > 200_000) {
    const extra = ((entry.shape.vocab - base.vocab) * entry.shape.hidden) / 1048576;
    estimates[`${short} shape`] = `DeBERTa-v3-base shape + ${Math.round(extra)} MB (int8) / ${Math.round(4 * extra)} MB (fp32) per thread`;
    continue;
  }
  shapes.push([`${short} shape int8`, () => (repo.startsWith('protectai') ? DEBERTA_INT8 : folder(`${short} int8`, listedShape(entry.shape, true)))]);
  if (!process.env.BENCH_MODEL_SKIP_LARGE || entry.shape.hidden < 768) shapes.push([`${short} shape fp32`, () => folder(`${short} fp32`, listedShape(entry.shape, false))]);
}
const memory: Record<string, { '1 thread': number; '2 threads': number; perThread: number; vsNoModel2Threads?: number }> = {};
const none = { '1 thread': child(['1']).rssMb, '2 threads': child(['2']).rssMb };
memory['no model'] = { ...none, perThread: none['2 threads'] - none['1 thread'] };
console.log('resident memory (MB) no model', memory['no model']);
report.memoryRssMb = memory;
for (const [name, make] of shapes) {
  // PIGuard's backbone is ProtectAI's (DeBERTa-v3-base): measured once.
  if (name.startsWith('PIGuard')) continue;
  const dir = make();
  const one = child(['1', dir]).rssMb;
  const two = child(['2', dir]).rssMb;
  memory[name] = { '1 thread': one, '2 threads': two, perThread: two - one, vsNoModel2Threads: round(two / none['2 threads'], 2) };
  console.log('resident memory (MB)', name, memory[name]);
  save();
  if (dir !== MINI && dir !== DEBERTA_INT8) rmSync(dir, { recursive: true, force: true });
}
report.memoryRssMb = memory;
report.memoryEstimates = estimates;
console.log('estimated', estimates);
report.machine = { ...(report.machine as object), loadAtEnd: load() };

save();
console.log('\nwritten: bench/results/model-latest.json');
