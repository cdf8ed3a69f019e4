/**
 * `npm run eval [-- path.jsonl] [--cv 5 | --no-cv] [--out dir]`
 * Runs inspect() in-process over a labelled JSON Lines file (default ../shared/eval/dev.jsonl, with its
 * `<name>.meta.jsonl` side-car when present) and prints recall / false-positive rate per kind, category and
 * subcategory, threat-family accuracy and latency. Because the committed model was trained on the dev set, a
 * grouped k-fold cross-validated run is reported next to the in-sample one (on by default, `--no-cv` skips it).
 * Writes bench/results/eval-<name>.json and .md. Prints metrics only, never content.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import settings from '../config/semantic.json' with { type: 'json' };
import { semanticModel } from '../src/inspect/layers/semantic.js';
import { inspect } from '../src/inspect/pipeline.js';
import type { CorpusRow } from '../src/inspect/semantic/corpus.js';
import { crossValidate } from './lib/cross-validation.js';
import { readRows, readSidecarMeta } from './lib/jsonl.js';
import { outcomeOf, summarise, type Outcome, type Report } from './lib/metrics.js';
import { renderMarkdown } from './lib/report.js';
import { datasetPaths, loadTrainingRows } from './lib/training-data.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function parseArgs(argv: string[]): { path: string; folds: number; out: string } {
  let path = resolve(root, '..', 'shared', 'eval', 'dev.jsonl');
  let folds = settings.training.folds;
  let out = join(root, 'bench', 'results');
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--cv') folds = Number(argv[++i]);
    else if (a === '--no-cv') folds = 0;
    else if (a === '--out') out = resolve(argv[++i]);
    else if (!a.startsWith('--')) path = resolve(a);
  }
  if (!Number.isInteger(folds) || folds === 1 || folds < 0) throw new Error('--cv needs an integer ≥ 2 (or --no-cv)');
  return { path, folds, out };
}

function line(name: string, r: Report): string {
  const parts = Object.entries(r.byKind).map(([kind, s]) => `${kind} recall ${pct(s.recall?.rate)} FPR ${pct(s.fpr?.rate)}`);
  const secret = r.byCategory.secret;
  if (secret) parts.push(`secret recall ${pct(secret.recall?.rate)} FPR ${pct(secret.fpr?.rate)}`);
  return `${name}: ${parts.join(' | ')} | family exact ${pct(r.family.exact)} category ${pct(r.family.category)}`;
}

function pct(x: number | undefined): string {
  return x === undefined ? '-' : `${(x * 100).toFixed(1)}%`;
}

const { path, folds, out } = parseArgs(process.argv.slice(2));
const rows: CorpusRow[] = readRows(path);
const metas = readSidecarMeta(path);
const started = performance.now();

// Warm-up so that JIT compilation does not count as latency.
for (const row of rows.slice(0, 200)) inspect({ content: row.text, kind: row.kind });
const inSample: Outcome[] = rows.map((row) => outcomeOf(row, metas.get(row.id), inspect({ content: row.text, kind: row.kind })));
const reports: Array<[string, Report]> = [['in-sample', summarise(inSample, true)]];
const notes = [
  `${rows.length} items from ${path.replace(resolve(root, '..') + '/', '')}${metas.size ? ' (with meta side-car)' : ''}`,
  'Rules: secret items count as detected when action ≠ allow (benign secret: FP when action ≠ allow); other attacks when blocked; other benign items are FP when blocked.',
  '"in-sample": the committed models, trained on datasets/ (which include this dev set) — optimistic.',
];
const trainingAvailable = existsSync(datasetPaths(root).derived);
if (folds >= 2 && trainingAvailable) {
  const cv = crossValidate(rows, metas, loadTrainingRows(root), folds, settings.training.seed, semanticModel);
  reports.push([`cv${folds}`, summarise(cv, false)]);
  notes.push(`"cv${folds}": grouped, stratified ${folds}-fold cross-validation; models retrained without the held-out fold (groups: BIPIA attack instruction, ATT&CK parent technique, NL2Bash command/description pair, P3 template, DAN template file). Caveat: BIPIA emails are shared between folds (the holdout uses other emails), and the calibration and risk curves of the committed model are reused.`);
}
const seconds = ((performance.now() - started) / 1000).toFixed(1);
notes.push(`eval took ${seconds} s on this machine`);

mkdirSync(out, { recursive: true });
const name = basename(path).replace(/\.jsonl$/, '');
writeFileSync(join(out, `eval-${name}.json`), JSON.stringify({ source: path, notes, reports: Object.fromEntries(reports) }, null, 1) + '\n');
writeFileSync(join(out, `eval-${name}.md`), renderMarkdown(name, reports, notes));
for (const [n, r] of reports) console.log(line(n, r));
const latency = reports[0][1].latencyMs;
if (latency) console.log(`latency p50 ${latency.p50} ms, p99 ${latency.p99} ms`);
console.log(`report: ${join(out, `eval-${name}.md`).replace(root + '/', '')} (${seconds} s)`);
