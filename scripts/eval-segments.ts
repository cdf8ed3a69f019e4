/**
 * `npx tsx scripts/eval-segments.ts [--units REGEX] [--each]`: the tool-result sources of datasets/sources/ scored with
 * and without the segment judge (src/inspect/segments/), by models that never saw them. By default every matching
 * source is held out at once (one retraining: quick, and harsher than leave-one-source-out, since the model then sees no
 * tool-result source at all); `--each` holds them out one at a time (leave-one-source-out, one retraining each). Both
 * columns come from the same retrained models: "without" drops the judge's flag before the decision. Prints recall
 * (blocked attacks) and FPR (blocked benign rows) per source and pooled; metrics only, never content.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCausalLayer } from '../src/inspect/layers/causal.js';
import { createSemanticLayer, semanticModel } from '../src/inspect/layers/semantic.js';
import { inspect } from '../src/inspect/pipeline.js';
import { LAYERS } from '../src/inspect/registry.js';
import { foldKeysOf, trainWeights } from '../src/inspect/semantic/build-model.js';
import type { CorpusRow } from '../src/inspect/semantic/corpus.js';
import type { InspectionContext, Layer } from '../src/inspect/types.js';
import { featurizedOnce } from './lib/cross-validation.js';
import { readRows } from './lib/jsonl.js';
import { publicSourceFiles, publicSourceStems, publicSourceUnit } from './lib/public-sources.js';
import { loadTrainingRows } from './lib/training-data.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const at = process.argv.indexOf('--units');
const only = new RegExp(at >= 0 ? process.argv[at + 1] : '.');
const each = process.argv.includes('--each');

const stems = publicSourceStems(root);
const rows: CorpusRow[] = publicSourceFiles(root)
  .flatMap((file) => readRows(file))
  .filter((row) => row.kind === 'tool_result' && only.test(publicSourceUnit(row, stems) ?? ''));
const unitOf = new Map<string, string>();
for (const file of publicSourceFiles(root)) for (const row of readRows(file)) unitOf.set(row.id, publicSourceUnit(row, stems) ?? '');
const units = [...new Set(rows.map((row) => unitOf.get(row.id) ?? ''))].sort();
process.stderr.write(`${rows.length} tool results in ${units.length} sources; featurising the training data…\n`);
const featurized = featurizedOnce(loadTrainingRows(root));

/** The causal layer without the segment judge's flag: what the pipeline decided before it. */
function withoutJudge(causal: Layer): Layer {
  return {
    name: 'causal',
    run(ctx: InspectionContext) {
      causal.run(ctx);
      ctx.flags = ctx.flags.filter((f) => f.type !== 'addressed_instruction');
    },
  };
}

const counts = new Map<string, { attacks: number; benign: number; tp: [number, number]; fp: [number, number] }>();
const groups = each ? units.map((u) => [u]) : [units];
for (const held of groups) {
  const heldSet = new Set(held);
  const train = featurized.filter((f) => !foldKeysOf(f.row).some((k) => heldSet.has(unitOf.get(k) ?? '')));
  const trained = trainWeights(train);
  const model = { weights: trained.weights, bias: trained.bias, calibration: semanticModel.calibration, risk: semanticModel.risk };
  const causal = createCausalLayer(model);
  const swapped: Record<string, Layer> = { semantic: createSemanticLayer(model), causal };
  const after = LAYERS.map((layer) => swapped[layer.name] ?? layer);
  const before = after.map((layer) => (layer.name === 'causal' ? withoutJudge(causal) : layer));
  for (const row of rows) {
    const unit = unitOf.get(row.id) ?? '';
    if (!heldSet.has(unit)) continue;
    const c = counts.get(unit) ?? { attacks: 0, benign: 0, tp: [0, 0], fp: [0, 0] };
    const blocked = [before, after].map((layers) => inspect({ content: row.text, kind: 'tool_result' }, layers).action === 'block');
    if (row.label === 'attack') {
      c.attacks++;
      blocked.forEach((b, i) => (c.tp[i] += b ? 1 : 0));
    } else {
      c.benign++;
      blocked.forEach((b, i) => (c.fp[i] += b ? 1 : 0));
    }
    counts.set(unit, c);
  }
  process.stderr.write(`held out ${held.join(', ')}\n`);
}

const pct = (n: number, d: number): string => (d === 0 ? '-' : `${((100 * n) / d).toFixed(1)} % (${n}/${d})`);
console.log(`${each ? 'leave-one-source-out' : 'all held out at once'}: recall and FPR of blocking, without → with the segment judge\n`);
console.log('| source | recall without | recall with | FPR without | FPR with |\n| --- | --- | --- | --- | --- |');
const total = { attacks: 0, benign: 0, tp: [0, 0], fp: [0, 0] };
for (const [unit, c] of [...counts].sort()) {
  console.log(`| ${unit} | ${pct(c.tp[0], c.attacks)} | ${pct(c.tp[1], c.attacks)} | ${pct(c.fp[0], c.benign)} | ${pct(c.fp[1], c.benign)} |`);
  total.attacks += c.attacks;
  total.benign += c.benign;
  for (const i of [0, 1]) {
    total.tp[i] += c.tp[i];
    total.fp[i] += c.fp[i];
  }
}
console.log(`| **pooled** | ${pct(total.tp[0], total.attacks)} | ${pct(total.tp[1], total.attacks)} | ${pct(total.fp[0], total.benign)} | ${pct(total.fp[1], total.benign)} |`);
