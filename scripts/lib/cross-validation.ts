import { createCausalLayer } from '../../src/inspect/layers/causal.js';
import { createHyperbolicLayer } from '../../src/inspect/layers/hyperbolic.js';
import { createSemanticLayer } from '../../src/inspect/layers/semantic.js';
import { loadHyperbolicModel } from '../../src/inspect/hyperbolic/classifier.js';
import { trainHyperbolicFile } from '../../src/inspect/hyperbolic/build.js';
import { inspect } from '../../src/inspect/pipeline.js';
import { LAYERS } from '../../src/inspect/registry.js';
import { featurizeRows, foldKeysOf, trainWeights, type TrainingRow } from '../../src/inspect/semantic/build-model.js';
import { assignFolds, type CorpusRow, type RowMeta } from '../../src/inspect/semantic/corpus.js';
import type { SemanticModel } from '../../src/inspect/semantic/model.js';
import type { Layer } from '../../src/inspect/types.js';
import { outcomeOf, type Outcome } from './metrics.js';

/**
 * Honest estimate for a model trained on the dev set: grouped, stratified k-fold cross-validation. For each fold
 * the semantic and hyperbolic models are retrained on the training data minus the fold's rows (curated rows always
 * stay in), and the held-out rows go through the full pipeline with those models swapped in. The Platt
 * calibration and risk curves of the committed model are reused (two parameters each per kind, fitted on
 * out-of-fold logits).
 */
export function crossValidate(
  evalRows: readonly CorpusRow[],
  metas: ReadonlyMap<string, RowMeta>,
  trainingRows: readonly TrainingRow[],
  folds: number,
  seed: number,
  calibrations: Pick<SemanticModel, 'calibration' | 'risk'>,
): Outcome[] {
  const foldOf = assignFolds(evalRows, metas, folds, seed);
  const featurized = featurizeRows(trainingRows);
  const outcomes: Outcome[] = [];
  for (let fold = 0; fold < folds; fold++) {
    const train = featurized.filter((f) => !foldKeysOf(f.row).some((k) => foldOf.get(k) === fold));
    const trained = trainWeights(train);
    const model: SemanticModel = { weights: trained.weights, bias: trained.bias, calibration: calibrations.calibration, risk: calibrations.risk };
    const hyperbolic = loadHyperbolicModel(trainHyperbolicFile(train.map((f) => f.row), train));
    const swapped: Record<string, Layer> = {
      semantic: createSemanticLayer(model),
      hyperbolic: createHyperbolicLayer(hyperbolic),
      causal: createCausalLayer(model),
    };
    const layers = LAYERS.map((layer) => swapped[layer.name] ?? layer);
    for (const row of evalRows) {
      if (foldOf.get(row.id) !== fold) continue;
      const verdict = inspect({ content: row.text, kind: row.kind }, layers);
      outcomes.push(outcomeOf(row, metas.get(row.id), verdict));
    }
  }
  return outcomes;
}
