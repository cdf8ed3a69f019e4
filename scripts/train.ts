/**
 * `npm run train`: rebuilds models/semantic.json (and models/hyperbolic.json) from the committed data in
 * datasets/. Deterministic: fixed seed, fixed order, no clock in the weights. Prints counts and timings only.
 *   npm run train                       train from datasets/
 *   npm run train -- --import-dev [p]   first re-derive datasets/dev-derived.jsonl from the dev set (p, else dev.jsonl of
 *                                       --dataset DIR / BASTION_EVAL_DATASET / ../shared/eval, see scripts/lib/eval-dataset.ts)
 *                                       and datasets/extra-derived.jsonl from the extra/ folder beside it
 * Progress (one step per phase) goes to stderr.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import settings from '../config/semantic.json' with { type: 'json' };
import { featurizeRows, fitCalibration, toModelFile, trainWeights } from '../src/inspect/semantic/build-model.js';
import { trainHyperbolicFile } from '../src/inspect/hyperbolic/build.js';
import { datasetPaths, importDev, importExtra, loadTrainingRows } from './lib/training-data.js';
import { DatasetMissingError, resolveEvalDataset } from './lib/eval-dataset.js';
import { progressBar } from './lib/progress.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);

const importAt = args.indexOf('--import-dev');
if (importAt >= 0) {
  const next = args[importAt + 1];
  const datasetAt = args.indexOf('--dataset');
  let devPath: string;
  try {
    devPath = next && !next.startsWith('--') ? resolve(next) : resolveEvalDataset(root, datasetAt >= 0 ? args[datasetAt + 1] : undefined, process.env, 'npm run train -- --import-dev').dev;
    if (!existsSync(devPath)) throw new DatasetMissingError(`no such file: ${devPath}`);
  } catch (err) {
    if (!(err instanceof DatasetMissingError)) throw err;
    process.stderr.write(`train --import-dev: ${err.message}\n`);
    process.exit(2);
  }
  const count = importDev(devPath, datasetPaths(root).derived);
  console.log(`derived ${count} rows into datasets/dev-derived.jsonl`);
  const extraCount = importExtra(join(dirname(devPath), 'extra'), datasetPaths(root).extra);
  console.log(`copied ${extraCount} rows into datasets/extra-derived.jsonl`);
}

const bar = progressBar('train', 4);
const t0 = performance.now();
const rows = loadTrainingRows(root);
const items = featurizeRows(rows);
bar.tick('featurised');
const t1 = performance.now();
const calibration = fitCalibration(items, settings.training.folds);
bar.tick('calibrated');
const t2 = performance.now();
const trained = trainWeights(items);
bar.tick('fitted');
const t3 = performance.now();
const positives = items.filter((f) => f.example.label === 1).length;
const file = toModelFile(trained, calibration, {
  rows: rows.length,
  curatedRows: rows.filter((r) => r.curated).length,
  positives,
  seed: settings.training.seed,
  epochs: settings.training.epochs,
});
writeFileSync(join(root, 'models', 'semantic.json'), JSON.stringify(file) + '\n');
const hyperbolic = trainHyperbolicFile(rows, items);
writeFileSync(join(root, 'models', 'hyperbolic.json'), JSON.stringify(hyperbolic) + '\n');
bar.tick('hyperbolic');
bar.stop();
const t4 = performance.now();
console.log(`rows ${rows.length} (${positives} semantic positives), featurise ${((t1 - t0) / 1000).toFixed(1)} s, calibration ${((t2 - t1) / 1000).toFixed(1)} s, fit ${((t3 - t2) / 1000).toFixed(1)} s, hyperbolic ${((t4 - t3) / 1000).toFixed(1)} s`);
console.log(`calibration ${JSON.stringify(calibration.calibration)}`);
console.log(`risk ${JSON.stringify(calibration.risk)}`);
