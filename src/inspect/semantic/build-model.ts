import settings from '../../../config/semantic.json' with { type: 'json' };
import { fitPlatt, type Platt } from './calibration.js';
import { assignFolds, semanticLabel, type CorpusRow } from './corpus.js';
import { BITS, featurizeChunks, MODEL_KINDS, modelKind, newSink, type ModelKind } from './featurize.js';
import type { SemanticModelFile } from './model.js';
import { exampleLogit, trainLogistic, type TrainedWeights, type TrainingExample, type TrainOptions } from './trainer.js';
import { encodeWeights } from './weights-codec.js';

/**
 * Builds the semantic model from labelled rows: featurise, weight, fit Platt calibration on grouped out-of-fold
 * logits, then train on everything. Pure (no I/O): scripts/train.ts writes the result, scripts/eval.ts calls it
 * per cross-validation fold.
 */

export interface TrainingRow extends CorpusRow {
  /** Curated rows (datasets/curated) are fewer and hand-picked: they weigh `curatedWeight` times more. */
  curated?: boolean;
  /**
   * Rows of the labelled set this row derives from: cross-validation leaves it out of training whenever one of
   * them is held out. Default: the row's own id, or none for curated rows.
   */
  foldKeys?: string[];
  /** Sample weight multiplier (default 1). */
  weight?: number;
  /**
   * A row of a public training source (datasets/sources/): trained on, but not one of the benign rows the operating
   * point is anchored on. Those sources hold thousands of easy negatives (maths questions, SELECTs) that would pull
   * the HIGH anchor down to where hard negatives — questions about security, system prompts — start to block.
   */
  external?: boolean;
}

export function foldKeysOf(row: TrainingRow): string[] {
  return row.foldKeys ?? (row.curated ? [] : [row.id]);
}

export interface FeaturizedRow {
  row: TrainingRow;
  example: TrainingExample;
}

export const TRAIN_OPTIONS: TrainOptions = {
  bits: BITS,
  epochs: settings.training.epochs,
  learningRate: settings.training.learningRate,
  l2: settings.training.l2,
  seed: settings.training.seed,
};

export function featurizeRows(rows: readonly TrainingRow[]): FeaturizedRow[] {
  const sink = newSink();
  return rows.map((row) => ({
    row,
    example: { chunks: featurizeChunks(row.text, modelKind(row.kind), sink), kind: modelKind(row.kind), label: semanticLabel(row), weight: 1 },
  }));
}

/** Balances each kind to equal attack/benign mass, so that no kind's prior swamps the shared features. */
function weighted(items: readonly FeaturizedRow[]): TrainingExample[] {
  const mass = new Map<string, number>();
  const key = (f: FeaturizedRow): string => `${f.example.kind}|${f.example.label}`;
  const w = (f: FeaturizedRow): number => (f.row.curated ? settings.training.curatedWeight : 1) * (f.row.weight ?? 1);
  for (const f of items) mass.set(key(f), (mass.get(key(f)) ?? 0) + w(f));
  const kindMass = new Map<ModelKind, number>();
  for (const f of items) kindMass.set(f.example.kind, (kindMass.get(f.example.kind) ?? 0) + w(f));
  return items.map((f) => ({
    ...f.example,
    weight: (w(f) * 0.5 * (kindMass.get(f.example.kind) ?? 1)) / (mass.get(key(f)) ?? 1),
  }));
}

export function trainWeights(items: readonly FeaturizedRow[], opts: TrainOptions = TRAIN_OPTIONS): TrainedWeights {
  return trainLogistic(weighted(items), opts);
}

export interface Calibrations {
  calibration: Record<ModelKind, Platt>;
  risk: Record<ModelKind, Platt>;
}

/** Per-kind calibration and risk curves fitted on grouped out-of-fold logits (augmented rows excluded). */
export function fitCalibration(items: readonly FeaturizedRow[], folds: number, opts: TrainOptions = TRAIN_OPTIONS): Calibrations {
  const foldOf = assignFolds(items.map((f) => f.row), new Map(), folds, opts.seed);
  const heldOut = (f: FeaturizedRow, fold: number): boolean => [f.row.id, ...foldKeysOf(f.row)].some((k) => foldOf.get(k) === fold);
  const logits: Record<ModelKind, number[]> = { prompt: [], tool_result: [], tool_call: [] };
  const labels: Record<ModelKind, number[]> = { prompt: [], tool_result: [], tool_call: [] };
  /** Out-of-fold logits of the labelled set's benign rows (curated rows excluded): the operating point. */
  const benign: Record<ModelKind, number[]> = { prompt: [], tool_result: [], tool_call: [] };
  for (let fold = 0; fold < folds; fold++) {
    const train = items.filter((f) => !heldOut(f, fold));
    const trained = trainWeights(train, opts);
    for (const f of items) {
      // Calibrate on labelled and hand-written rows, not on synthetic augmentations.
      if (f.row.category.startsWith('augmented_') || foldOf.get(f.row.id) !== fold) continue;
      const z = exampleLogit(trained, f.example);
      logits[f.example.kind].push(z);
      labels[f.example.kind].push(f.example.label);
      if (!f.row.curated && !f.row.external && f.row.label === 'benign') benign[f.example.kind].push(z);
    }
  }
  const calibration = {} as Record<ModelKind, Platt>;
  const risk = {} as Record<ModelKind, Platt>;
  for (const kind of MODEL_KINDS) {
    calibration[kind] = fitPlatt(logits[kind], labels[kind]);
    risk[kind] = riskCurve(calibration[kind], benign[kind]);
  }
  return { calibration, risk };
}

const logit = (p: number): number => Math.log(p / (1 - p));
const HIGH = logit(0.75);
const MEDIUM = logit(0.45);
/** The MEDIUM anchor stays at least this far (in logits) below the HIGH one, so the curve is never a step. */
const MIN_BAND = 0.75;

/** The out-of-fold logit above which a share `fpr` of the labelled benign rows lies. */
function quantileAbove(sortedDescending: readonly number[], fpr: number): number {
  return sortedDescending[Math.min(Math.floor(sortedDescending.length * fpr), sortedDescending.length - 1)] + 1e-6;
}

/**
 * The risk curve is the logistic through two anchors on the out-of-fold logits of the labelled benign rows of
 * the kind: risk 0.75 (HIGH, blocks in normal mode) where `operatingFpr.high` of them score above, risk 0.45
 * (MEDIUM, blocks in strict mode) where `operatingFpr.medium` do. Neither anchor goes below the point the
 * balanced Platt calibration gives that level, so the curve is never more aggressive than the probability.
 */
function riskCurve(platt: Platt, benignLogits: readonly number[]): Platt {
  const sorted = [...benignLogits].sort((x, y) => y - x);
  const plattAt = (level: number): number => (level - platt.b) / platt.a;
  let high = plattAt(HIGH);
  let medium = plattAt(MEDIUM);
  if (sorted.length > 0) {
    high = Math.max(high, quantileAbove(sorted, settings.training.operatingFpr.high));
    medium = Math.max(medium, quantileAbove(sorted, settings.training.operatingFpr.medium));
  }
  medium = Math.min(medium, high - MIN_BAND);
  const a = (HIGH - MEDIUM) / (high - medium);
  return { a, b: HIGH - a * high };
}

export function toModelFile(trained: TrainedWeights, calibrations: Calibrations, training: Record<string, unknown>): SemanticModelFile {
  return {
    _about: 'Semantic guard model (layer 4): logistic regression over hashed word, character and shell features; int8 weights, base64. Generated by `npm run train` from datasets/ (see datasets/NOTICE.md). Do not edit by hand.',
    version: 1,
    bits: BITS,
    weights: encodeWeights(trained.weights),
    bias: trained.bias,
    calibration: calibrations.calibration,
    risk: calibrations.risk,
    training,
  };
}
