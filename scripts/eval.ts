/**
 * `npm run eval [-- path.jsonl …] [--dataset DIR] [--cv 5 | --no-cv] [--no-loso] [--no-kfold] [--only REGEX] [--fast] [--out dir]`
 * (`--dataset DIR` or BASTION_EVAL_DATASET: the folder holding dev.jsonl; default ../shared/eval, see scripts/lib/eval-dataset.ts)
 * (`--only` scores only the held-out units matching REGEX, `--together` holds them out at once, `--fast` keeps the committed
 * hyperbolic model: quick iterations)
 * Runs inspect() in-process over labelled JSON Lines files (default: the dataset folder's dev.jsonl with its
 * `dev.meta.jsonl` side-car, plus every extra/*.jsonl in it) and prints recall / false-positive rate per
 * kind, source, category and subcategory, threat-family accuracy and latency. The committed models were trained on
 * these sets, so two held-out runs are reported next to the in-sample one:
 *   - leave-one-source-out (`loso`, the estimate of traffic from sources we never saw: see scripts/lib/source-units.ts);
 *   - grouped, stratified k-fold cross-validation (`cv5`).
 * `--no-cv` skips both. Sets that are never trained on (datasets/multilingual-eval/) are reported apart.
 * Writes bench/results/eval-<name>.json and .md, and the plots eval-<name>-categories.svg and
 * eval-<name>-threshold.svg beside them (scripts/lib/plots.ts). Shows progress on stderr. Prints metrics only, never content.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import settings from '../config/semantic.json' with { type: 'json' };
import { semanticModel } from '../src/inspect/layers/semantic.js';
import { inspect } from '../src/inspect/pipeline.js';
import type { CorpusRow, RowMeta } from '../src/inspect/semantic/corpus.js';
import { crossValidate, evaluateHeldOut, featurizedOnce } from './lib/cross-validation.js';
import { readRows, readSidecarMeta } from './lib/jsonl.js';
import { outcomeOf, summarise, type Outcome, type Report } from './lib/metrics.js';
import { renderMarkdown } from './lib/report.js';
import { sourceUnits } from './lib/source-units.js';
import { publicSourceFiles, publicSourceStems } from './lib/public-sources.js';
import { datasetPaths, loadTrainingRows } from './lib/training-data.js';
import { DatasetMissingError, resolveEvalDataset } from './lib/eval-dataset.js';
import { writePlots } from './lib/plots.js';
import { evalRequest, harmTables } from './lib/harm-eval.js';
import { progressBar, type Progress } from './lib/progress.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

interface Args {
  paths: string[];
  folds: number;
  loso: boolean;
  kfold: boolean;
  only?: RegExp;
  fast: boolean;
  together: boolean;
  out: string;
  name: string;
}

function parseArgs(argv: string[]): Args {
  const paths: string[] = [];
  let folds = settings.training.folds;
  let loso = true;
  let kfold = true;
  let only: RegExp | undefined;
  let fast = false;
  let together = false;
  let out = join(root, 'bench', 'results');
  let dataset: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--cv') folds = Number(argv[++i]);
    else if (a === '--no-cv') folds = 0;
    else if (a === '--no-loso') loso = false;
    else if (a === '--no-kfold') kfold = false;
    else if (a === '--only') only = new RegExp(argv[++i]);
    else if (a === '--fast') fast = true;
    else if (a === '--together') together = true;
    else if (a === '--out') out = resolve(argv[++i]);
    else if (a === '--dataset') dataset = argv[++i];
    else if (!a.startsWith('--')) paths.push(resolve(a));
  }
  if (!Number.isInteger(folds) || folds === 1 || folds < 0) throw new Error('--cv needs an integer ≥ 2 (or --no-cv)');
  const missing = paths.find((p) => !existsSync(p));
  if (missing) throw new DatasetMissingError(`no such file: ${missing}`);
  if (paths.length > 0) return { paths, folds, loso: loso && folds > 0, kfold, only, fast, together, out, name: basename(paths[0]).replace(/\.jsonl$/, '') };
  const set = resolveEvalDataset(root, dataset);
  return { paths: [set.dev, ...set.extra, ...publicSourceFiles(root)], folds, loso: loso && folds > 0, kfold, only, fast, together, out, name: 'dev' };
}

function line(name: string, r: Report): string {
  const parts = Object.entries(r.byKind).map(([kind, s]) => `${kind} recall ${pct(s.recall?.rate)} FPR ${pct(s.fpr?.rate)}`);
  const secret = r.byCategory.secret;
  if (secret) parts.push(`secret recall ${pct(secret.recall?.rate)} FPR ${pct(secret.fpr?.rate)}`);
  for (const [key, s] of Object.entries(r.byCategory)) if (/system_prompt|role_prompt/.test(key)) parts.push(`${key} FPR ${pct(s.fpr?.rate)}`);
  return `${name}: ${parts.join(' | ')} | family exact ${pct(r.family.exact)} category ${pct(r.family.category)}`;
}

/** The per-unit table of a held-out run (recall and FPR of every held-out source unit). */
function unitTable(r: Report): string {
  const rows = Object.entries(r.bySource).map(([unit, s]) => `| ${unit} | ${s.recall ? `${pct(s.recall.rate)} (${s.recall.hits}/${s.recall.n})` : ''} | ${s.fpr ? `${pct(s.fpr.rate)} (${s.fpr.hits}/${s.fpr.n})` : ''} |`);
  return ['### loso: per held-out unit', '', '| unit | recall | FPR |', '|---|---|---|', ...rows].join('\n') + '\n';
}

function pct(x: number | undefined): string {
  return x === undefined ? '-' : `${(x * 100).toFixed(1)}%`;
}

function load(paths: string[]): { rows: CorpusRow[]; metas: Map<string, RowMeta> } {
  const rows: CorpusRow[] = [];
  const metas = new Map<string, RowMeta>();
  for (const path of paths) {
    rows.push(...readRows(path));
    for (const [id, meta] of readSidecarMeta(path)) metas.set(id, meta);
  }
  return { rows, metas };
}

function scoreInSample(rows: readonly CorpusRow[], metas: ReadonlyMap<string, RowMeta>, label: string): Outcome[] {
  const bar = progressBar(label, rows.length);
  try {
    return rows.map((row) => {
      const outcome = outcomeOf(row, metas.get(row.id), inspect(evalRequest(row)));
      bar.tick();
      return outcome;
    });
  } finally {
    bar.stop();
  }
}

/** Sets kept out of training (datasets/multilingual-eval/): scoring them with the committed models is a held-out figure. */
const NEVER_TRAINED = join(root, 'datasets', 'multilingual-eval');
const neverTrainedOn = (path: string): boolean => resolve(path).startsWith(NEVER_TRAINED + '/');

/** What "in-sample" means for these inputs: true of the dev and extra sets, false of the never-trained-on ones. */
function inSampleNote(paths: readonly string[]): string {
  const held = paths.filter(neverTrainedOn);
  if (held.length === paths.length) return '"in-sample": the committed models, which were never trained on these sets (datasets/multilingual-eval/ is kept out of training): a held-out figure.';
  if (held.length === 0) return '"in-sample": the committed models, trained on datasets/ (which include these sets) — optimistic.';
  return `"in-sample": the committed models; trained on every input except ${held.map((p) => p.replace(root + '/', '')).join(', ')} (never trained on), so optimistic for the rest.`;
}

const args = parsedOrExit(process.argv.slice(2));

function parsedOrExit(argv: string[]): Args {
  try {
    return parseArgs(argv);
  } catch (err) {
    if (!(err instanceof DatasetMissingError)) throw err;
    process.stderr.write(`eval: ${err.message}\n`);
    process.exit(2);
  }
}
const { rows, metas } = load(args.paths);
const started = performance.now();
const shown = (p: string): string => p.replace(resolve(root, '..') + '/', '');

// Warm-up so that JIT compilation does not count as latency.
for (const row of rows.slice(0, 200)) inspect({ content: row.text, kind: row.kind });
const reports: Array<[string, Report]> = [['in-sample', summarise(scoreInSample(rows, metas, 'in-sample'), true)]];
const notes = [
  `${rows.length} items from ${args.paths.map(shown).join(', ')}${metas.size ? ' (with meta side-car)' : ''}`,
  'Rules: secret items count as detected when action ≠ allow (benign secret: FP when action ≠ allow); other attacks when blocked; other benign items are FP when blocked.',
  'Harmful requests and their benign look-alikes (categories harmful_request, benign_lookalike) are inspected under the tenant policy harmful_content: block and reported together as the kind harmful_request (FPR = look-alikes blocked); every other row under the default policy (harmful_content: flag).',
  inSampleNote(args.paths),
];
const trainingAvailable = existsSync(datasetPaths(root).derived);
if (args.folds >= 2 && trainingAvailable) {
  const featurized = featurizedOnce(loadTrainingRows(root));
  if (args.loso) {
    const units = sourceUnits(rows, metas, publicSourceStems(root));
    // --together: the units matching --only are held out at once (one retraining): a quick, harsher proxy of loso.
    if (args.together && args.only) for (const [id, unit] of units) if (args.only.test(unit)) units.set(id, 'together');
    let bar: Progress | undefined;
    const loso = evaluateHeldOut(rows, metas, featurized, units, semanticModel, {
      ...(args.only ? { only: args.together ? /^together$/ : args.only } : {}),
      keepHyperbolic: args.fast,
      onUnit: (unit, _done, total) => (bar ??= progressBar('loso', total)).tick(unit),
    });
    bar?.stop();
    reports.push(['loso', summarise(loso, false)]);
    notes.push('"loso": leave-one-source-out. Each unit (a source; for single-source attack kinds a family within it: garak probe family, BIPIA attack category, ATT&CK tactic; the extra benign prompts per source repository) is scored by models retrained without every row derived from it (curated rows stay in). This is the estimate for traffic from sources never seen; "By source" lists each unit.');
  }
  if (args.kfold) {
    const bar = progressBar(`cv${args.folds}`, args.folds);
    const cv = crossValidate(rows, metas, featurized, args.folds, settings.training.seed, semanticModel, (unit) => bar.tick(unit));
    bar.stop();
    reports.push([`cv${args.folds}`, summarise(cv, false)]);
  }
  notes.push(`"cv${args.folds}": grouped, stratified ${args.folds}-fold cross-validation; models retrained without the held-out fold (groups: BIPIA attack instruction, ATT&CK parent technique, NL2Bash command/description pair, P3 template, DAN template file, one lobe-chat agent or fabric pattern with its translations). Caveats for both held-out runs: the calibration and risk curves of the committed model are reused, and the effect judge, curated patterns and the phishing and secret layers are not trained on these sets.`);
}

// The extra system prompts as the chat proxy reads an app's system message (role system, default tenant policy
// system_messages: secrets_only): curated patterns, secrets and rules count, the injection model alone does not.
const systemPrompts = rows.filter((row) => row.category === 'system_prompt');
if (systemPrompts.length > 0) {
  const asSystem = systemPrompts.map((row) => outcomeOf(row, metas.get(row.id), inspect({ content: row.text, kind: row.kind, role: 'system' })));
  reports.push(['as role=system', summarise(asSystem, false)]);
  notes.push(`"as role=system": the ${systemPrompts.length} extra system prompts sent as an app's system message (chat proxy, or /filter with "role": "system") under the default tenant policy system_messages: secrets_only.`);
}

// Sets the models never see: scored with the committed models, reported apart.
const neverTrained = join(root, 'datasets', 'multilingual-eval');
if (args.name === 'dev' && existsSync(neverTrained)) {
  const files = readdirSync(neverTrained).filter((f) => f.endsWith('.jsonl')).sort().map((f) => join(neverTrained, f));
  const set = load(files);
  if (set.rows.length > 0) {
    reports.push(['multilingual (never trained on)', summarise(scoreInSample(set.rows, set.metas, 'multilingual'), false)]);
    notes.push(`"multilingual": ${set.rows.length} items of datasets/multilingual-eval/ (written for this repo, never used for training), committed models.`);
  }
}
const seconds = ((performance.now() - started) / 1000).toFixed(1);
notes.push(`eval took ${seconds} s on this machine`);

mkdirSync(args.out, { recursive: true });
writeFileSync(join(args.out, `eval-${args.name}.json`), JSON.stringify({ sources: args.paths.map(shown), notes, reports: Object.fromEntries(reports) }, null, 1) + '\n');
const harm = harmTables(rows);
writeFileSync(join(args.out, `eval-${args.name}.md`), renderMarkdown(args.name, reports, notes) + '\n' + harm);
const plots = await writePlots(args.out, args.name, Object.fromEntries(reports));
for (const [n, r] of reports) console.log(line(n, r));
console.log(harm);
for (const [n, r] of reports) if (r.bySource && n === 'loso') console.log(unitTable(r));
const latency = reports[0][1].latencyMs;
if (latency) console.log(`latency p50 ${latency.p50} ms, p99 ${latency.p99} ms`);
console.log(`report: ${join(args.out, `eval-${args.name}.md`).replace(root + '/', '')} (${seconds} s)`);
console.log(`plots: ${plots.map((p) => p.replace(root + '/', '')).join(', ')}`);
