import { mulberry32 } from './hashing.js';
import { MODEL_KINDS, type ModelKind } from './featurize.js';

/**
 * Logistic regression trained with AdaGrad (Duchi et al. 2011) and L2 regularisation, in a fixed order drawn
 * from a seeded PRNG: the same data and seed give bit-identical weights. Content longer than one chunk is
 * treated as a bag of chunks (multiple-instance learning): every chunk of benign content is a negative, while
 * for an attack only its highest-scoring chunk is pushed up (after a first epoch on all chunks), matching the
 * max-over-chunks rule used at inference.
 */

export interface TrainingExample {
  chunks: Int32Array[];
  kind: ModelKind;
  label: 0 | 1;
  weight: number;
}

export interface TrainOptions {
  bits: number;
  epochs: number;
  learningRate: number;
  l2: number;
  seed: number;
}

export interface TrainedWeights {
  weights: Float32Array;
  bias: Record<ModelKind, number>;
}

function sigmoid(z: number): number {
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

export function trainLogistic(examples: readonly TrainingExample[], opts: TrainOptions): TrainedWeights {
  const size = 1 << opts.bits;
  const w = new Float64Array(size);
  const g2 = new Float64Array(size);
  const bias = new Float64Array(MODEL_KINDS.length);
  const biasG2 = new Float64Array(MODEL_KINDS.length);
  const kindIndex = new Map(MODEL_KINDS.map((k, i) => [k, i]));
  const random = mulberry32(opts.seed);
  const order = examples.map((_, i) => i);
  const eps = 1e-8;
  for (const ex of examples) {
    for (const chunk of ex.chunks) {
      for (let i = 0; i < chunk.length; i++) {
        if (chunk[i] < 0 || chunk[i] >= size) throw new Error(`feature index ${chunk[i]} outside 2^${opts.bits} buckets: featurise with the same bits`);
      }
    }
  }

  const logitOf = (k: number, chunk: Int32Array): number => {
    if (chunk.length === 0) return bias[k];
    let s = 0;
    for (let i = 0; i < chunk.length; i++) s += w[chunk[i]];
    return bias[k] + s / Math.sqrt(chunk.length);
  };

  const step = (k: number, chunk: Int32Array, label: number, weight: number): void => {
    const p = sigmoid(logitOf(k, chunk));
    const g = (p - label) * weight;
    biasG2[k] += g * g;
    bias[k] -= (opts.learningRate * g) / (Math.sqrt(biasG2[k]) + eps);
    if (chunk.length === 0) return;
    const gn = g / Math.sqrt(chunk.length);
    for (let i = 0; i < chunk.length; i++) {
      const j = chunk[i];
      const grad = gn + opts.l2 * w[j];
      g2[j] += grad * grad;
      w[j] -= (opts.learningRate * grad) / (Math.sqrt(g2[j]) + eps);
    }
  };

  for (let epoch = 0; epoch < opts.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (const index of order) {
      const ex = examples[index];
      const k = kindIndex.get(ex.kind) ?? 0;
      if (ex.label === 0 || ex.chunks.length === 1 || epoch === 0) {
        for (const chunk of ex.chunks) step(k, chunk, ex.label, ex.weight);
      } else {
        let best = ex.chunks[0];
        let bestLogit = -Infinity;
        for (const chunk of ex.chunks) {
          const z = logitOf(k, chunk);
          if (z > bestLogit) {
            bestLogit = z;
            best = chunk;
          }
        }
        step(k, best, 1, ex.weight);
      }
    }
  }
  const biasOut = {} as Record<ModelKind, number>;
  MODEL_KINDS.forEach((kind, i) => (biasOut[kind] = bias[i]));
  return { weights: Float32Array.from(w), bias: biasOut };
}

/** The logit of an example under trained weights: its highest chunk. */
export function exampleLogit(trained: TrainedWeights, ex: TrainingExample): number {
  let best = -Infinity;
  for (const chunk of ex.chunks) {
    let s = 0;
    for (let i = 0; i < chunk.length; i++) s += trained.weights[chunk[i]];
    const z = trained.bias[ex.kind] + (chunk.length ? s / Math.sqrt(chunk.length) : 0);
    if (z > best) best = z;
  }
  return best;
}
