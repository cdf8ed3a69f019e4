/**
 * `npm run eval:evolution [-- path.jsonl | --dataset DIR]` measures the evolution loop with the offline analyser (no model needed).
 * Takes the labelled dev set (default: dev.jsonl of BASTION_EVAL_DATASET or ../shared/eval), finds the attacks the static layers miss, feeds each
 * through the offline analyser and the validation gate as the live loop does (redacted text, rules accumulating),
 * and reports recall on those attacks before and after plus the false-positive rate on the benign dev items after.
 * Because the shipped benign regression corpus contains those benign items, a 2-fold held-out run is reported too:
 * rules learnt from one half of the missed attacks with that fold's benign items removed from the gate's corpus,
 * measured on the other half's attacks and benign items. Writes bench/results/evolution-latest.json. Metrics only.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyse } from '../src/evolution/analysis-task.js';
import { buildBenignCorpus, readBenignItems, type BenignCorpus } from '../src/evolution/benign-corpus.js';
import { redactForAnalysis } from '../src/evolution/content.js';
import { inspect } from '../src/inspect/pipeline.js';
import { LAYERS } from '../src/inspect/registry.js';
import { compileRules, type CompiledRules } from '../src/inspect/rules/compile.js';
import type { DynamicRule, Kind, Verdict } from '../src/inspect/types.js';
import { DatasetMissingError, resolveEvalDataset } from './lib/eval-dataset.js';
import { readJsonl } from './lib/jsonl.js';

interface Row {
  id: string;
  text: string;
  label: 'attack' | 'benign';
  kind: Kind;
  category: string;
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const path = devSetPath(process.argv.slice(2));

/** A named file, else dev.jsonl of --dataset DIR / BASTION_EVAL_DATASET / ../shared/eval; a clear exit 2 when missing. */
function devSetPath(argv: string[]): string {
  const at = argv.indexOf('--dataset');
  const named = argv.find((a, i) => !a.startsWith('--') && argv[i - 1] !== '--dataset');
  try {
    const file = named ? resolve(named) : resolveEvalDataset(root, at >= 0 ? argv[at + 1] : undefined, process.env, 'npm run eval:evolution --').dev;
    if (!existsSync(file)) throw new DatasetMissingError(`no such file: ${file}`);
    return file;
  } catch (err) {
    if (!(err instanceof DatasetMissingError)) throw err;
    process.stderr.write(`eval:evolution: ${err.message}\n`);
    process.exit(2);
  }
}
const started = performance.now();

// The eval's scoring rule (scripts/lib/metrics.ts): secret items count when anything was redacted or blocked.
const positive = (row: Row, v: Verdict) => (row.category === 'secret' ? v.action !== 'allow' : !v.allowed);
const judge = (row: Row, rules?: CompiledRules) => inspect({ content: row.text, kind: row.kind }, LAYERS, rules);
const rate = (hits: number, n: number) => ({ n, hits, rate: n ? Math.round((hits / n) * 10_000) / 10_000 : 0 });
const fold = (id: string) => createHash('sha256').update(id).digest()[0] % 2;

const rows = readJsonl<Row>(path);
const statics = new Map(rows.map((row) => [row.id, judge(row)]));
const attacks = rows.filter((r) => r.label === 'attack');
const benign = rows.filter((r) => r.label === 'benign');
const missed = attacks.filter((r) => !positive(r, statics.get(r.id)!));
const staticFp = new Set(benign.filter((r) => positive(r, statics.get(r.id)!)).map((r) => r.id));

/** The live loop's steps for each attack in turn, rules accumulating (each new one must not duplicate the earlier). */
function learn(from: readonly Row[], corpus: BenignCorpus) {
  const rules: DynamicRule[] = [];
  const refused = new Map<string, number>();
  for (const row of from) {
    const verdict = statics.get(row.id)!;
    const text = redactForAnalysis(row.text, verdict.secrets);
    const outcome = analyse({ text, kind: row.kind, ...(verdict.threat_family ? { family: verdict.threat_family } : {}), existing: rules, maxPatternChars: 512 }, corpus);
    if (outcome.accepted) rules.push({ id: `eval_${rules.length}`, ...outcome.accepted });
    else {
      const reason = (outcome.refusals[0] ?? 'refused').split(':')[0];
      refused.set(reason, (refused.get(reason) ?? 0) + 1);
    }
  }
  return { rules, refused: Object.fromEntries(refused), compiled: compileRules(rules).compiled };
}

const detectedAfter = (set: readonly Row[], compiled: CompiledRules) => set.filter((r) => positive(r, judge(r, compiled))).length;
const fpAfter = (set: readonly Row[], compiled: CompiledRules) => set.filter((r) => staticFp.has(r.id) || !judge(r, compiled).allowed).length;

// In-sample: every missed attack, gated against the shipped corpus (which holds every benign dev item).
const shipped = readBenignItems();
const full = learn(missed, buildBenignCorpus(shipped));
const recallMissedAfter = detectedAfter(missed, full.compiled);
const inSample = {
  rules: full.rules.length,
  rules_by_kind: Object.fromEntries(['regex', 'phrase', 'exemplar'].map((k) => [k, full.rules.filter((r) => r.kind === k).length])),
  refused: full.refused,
  recall_on_missed: { before: rate(0, missed.length), after: rate(recallMissedAfter, missed.length) },
  recall_all_attacks: { before: rate(attacks.length - missed.length, attacks.length), after: rate(attacks.length - missed.length + recallMissedAfter, attacks.length) },
  fpr_benign_dev: { before: rate(staticFp.size, benign.length), after: rate(fpAfter(benign, full.compiled), benign.length) },
};

// Held out: learn on one half, measure on the other; the gate never sees the measured benign items.
let heldRecall = 0;
let heldFp = 0;
let heldStaticFp = 0;
let heldRules = 0;
for (const k of [0, 1]) {
  const unseenBenign = benign.filter((r) => fold(r.id) === k);
  const hidden = new Set(unseenBenign.map((r) => `dev:${r.id}`));
  const learnt = learn(missed.filter((r) => fold(r.id) !== k), buildBenignCorpus(shipped.filter((i) => !hidden.has(i.id))));
  heldRules += learnt.rules.length;
  heldRecall += detectedAfter(missed.filter((r) => fold(r.id) === k), learnt.compiled);
  heldFp += fpAfter(unseenBenign, learnt.compiled);
  heldStaticFp += unseenBenign.filter((r) => staticFp.has(r.id)).length;
}
const heldOut = {
  folds: 2,
  rules: heldRules,
  recall_on_unseen_missed: { before: rate(0, missed.length), after: rate(heldRecall, missed.length) },
  fpr_unseen_benign: { before: rate(heldStaticFp, benign.length), after: rate(heldFp, benign.length) },
};

const byCategory: Record<string, number> = {};
for (const r of missed) {
  const slice = `${r.kind}/${/^T\d/.test(r.category) ? 'attack_technique' : r.category}`;
  byCategory[slice] = (byCategory[slice] ?? 0) + 1;
}
const seconds = Math.round((performance.now() - started) / 100) / 10;
const report = {
  source: path.replace(resolve(root, '..') + '/', ''),
  analyser: 'offline',
  notes: [
    'missed = dev attacks the static layers (committed models) do not catch; secret items count when redacted or blocked, other attacks when blocked.',
    'in_sample: rules learnt from every missed attack; the gate corpus (config/benign-regression.jsonl) contains every benign dev item, so fpr_benign_dev after is guaranteed by construction.',
    'held_out: 2 folds by SHA-256 of the item id; rules learnt from the other fold\'s missed attacks, gated without this fold\'s benign items; recall on this fold\'s missed attacks, FPR on its benign items.',
  ],
  attacks: attacks.length,
  benign: benign.length,
  missed: missed.length,
  missed_by_slice: byCategory,
  in_sample: inSample,
  held_out: heldOut,
  seconds,
};
const out = join(root, 'bench', 'results');
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'evolution-latest.json'), JSON.stringify(report, null, 1) + '\n');
const pct = (r: { hits: number; n: number; rate: number }) => `${(r.rate * 100).toFixed(r.rate > 0 && r.rate < 0.01 ? 2 : 1)}% (${r.hits}/${r.n})`;
console.log(`static layers miss ${missed.length} of ${attacks.length} dev attacks; offline analyser → ${full.rules.length} rules (refused: ${JSON.stringify(full.refused)})`);
console.log(`in-sample: recall on missed ${pct(inSample.recall_on_missed.before)} → ${pct(inSample.recall_on_missed.after)}; all attacks ${pct(inSample.recall_all_attacks.before)} → ${pct(inSample.recall_all_attacks.after)}; benign FPR ${pct(inSample.fpr_benign_dev.before)} → ${pct(inSample.fpr_benign_dev.after)}`);
console.log(`held-out (2 folds): recall on unseen missed ${pct(heldOut.recall_on_unseen_missed.after)}; unseen benign FPR ${pct(heldOut.fpr_unseen_benign.before)} → ${pct(heldOut.fpr_unseen_benign.after)}`);
console.log(`report: bench/results/evolution-latest.json (${seconds} s)`);
