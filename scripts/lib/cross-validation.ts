import { createCausalLayer } from '../../src/inspect/layers/causal.js';
import { createHyperbolicLayer } from '../../src/inspect/layers/hyperbolic.js';
import { createSemanticLayer } from '../../src/inspect/layers/semantic.js';
import { loadHyperbolicModel } from '../../src/inspect/hyperbolic/classifier.js';
import { trainHyperbolicFile } from '../../src/inspect/hyperbolic/build.js';
import { inspect } from '../../src/inspect/pipeline.js';
import { LAYERS } from '../../src/inspect/registry.js';
import { featurizeRows, foldKeysOf, trainWeights, type FeaturizedRow, type TrainingRow } from '../../src/inspect/semantic/build-model.js';
import { assignFolds, type CorpusRow, type RowMeta } from '../../src/inspect/semantic/corpus.js';
import type { SemanticModel } from '../../src/inspect/semantic/model.js';
import type { Layer } from '../../src/inspect/types.js';
import { evalRequest } from './harm-eval.js';
import { outcomeOf, type Outcome } from './metrics.js';

type Calibrations = Pick<SemanticModel, 'calibration' | 'risk'>;

/**
 * Held-out evaluation: for each unit (a fold, or a source), the semantic and hyperbolic models are retrained on
 * the training data minus every row derived from that unit's labelled rows (curated rows always stay in), and the
 * unit's rows go through the full pipeline with those models swapped in. The Platt calibration and risk curves of
 * the committed model are reused (two parameters each per kind, fitted on grouped out-of-fold logits).
 */
export function evaluateHeldOut(
  evalRows: readonly CorpusRow[],
  metas: ReadonlyMap<string, RowMeta>,
  featurized: readonly FeaturizedRow[],
  unitOf: ReadonlyMap<string, string>,
  calibrations: Calibrations,
  options: HeldOutOptions = {},
): Outcome[] {
  const units = [...new Set(evalRows.map((row) => unitOf.get(row.id) ?? ''))].filter((u) => !options.only || options.only.test(u)).sort();
  const outcomes: Outcome[] = [];
  units.forEach((unit, i) => {
    const train = featurized.filter((f) => !foldKeysOf(f.row).some((k) => unitOf.get(k) === unit));
    const layers = layersTrainedOn(train, calibrations, options.keepHyperbolic ?? false);
    for (const row of evalRows) {
      if ((unitOf.get(row.id) ?? '') !== unit) continue;
      const verdict = inspect(evalRequest(row), layers);
      outcomes.push({ ...outcomeOf(row, metas.get(row.id), verdict), unit });
    }
    options.onUnit?.(unit, i + 1, units.length);
  });
  return outcomes;
}

export interface HeldOutOptions {
  /** Only the units matching this (quick iterations on one kind). */
  only?: RegExp;
  /** Keep the committed hyperbolic model (it places threat families and never changes a verdict): faster, family figures optimistic. */
  keepHyperbolic?: boolean;
  onUnit?: (unit: string, done: number, total: number) => void;
}

/** The nine layers with the semantic, hyperbolic and causal layers built from models trained on `train`. */
function layersTrainedOn(train: readonly FeaturizedRow[], calibrations: Calibrations, keepHyperbolic: boolean): Layer[] {
  const trained = trainWeights(train);
  const model: SemanticModel = { weights: trained.weights, bias: trained.bias, calibration: calibrations.calibration, risk: calibrations.risk };
  const swapped: Record<string, Layer> = { semantic: createSemanticLayer(model), causal: createCausalLayer(model) };
  if (!keepHyperbolic) swapped.hyperbolic = createHyperbolicLayer(loadHyperbolicModel(trainHyperbolicFile(train.map((f) => f.row), train)));
  return LAYERS.map((layer) => swapped[layer.name] ?? layer);
}

/** Grouped, stratified k-fold cross-validation (groups: see assignFolds in src/inspect/semantic/corpus.ts). */
export function crossValidate(
  evalRows: readonly CorpusRow[],
  metas: ReadonlyMap<string, RowMeta>,
  trainingRows: readonly TrainingRow[] | readonly FeaturizedRow[],
  folds: number,
  seed: number,
  calibrations: Calibrations,
  onFold?: (unit: string, done: number, total: number) => void,
): Outcome[] {
  const foldOf = assignFolds(evalRows, metas, folds, seed);
  const unitOf = new Map([...foldOf].map(([id, fold]) => [id, `fold ${fold}`]));
  return evaluateHeldOut(evalRows, metas, featurizedOnce(trainingRows), unitOf, calibrations, onFold ? { onUnit: onFold } : {});
}

export function featurizedOnce(rows: readonly TrainingRow[] | readonly FeaturizedRow[]): readonly FeaturizedRow[] {
  return rows.length > 0 && 'example' in rows[0] ? (rows as readonly FeaturizedRow[]) : featurizeRows(rows as readonly TrainingRow[]);
}
