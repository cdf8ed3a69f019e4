import type { Span } from '../types.js';
import { applyPlatt, type Platt } from './calibration.js';
import { BITS, chunkSpans, featurizeSpan, MODEL_KINDS, type ModelKind } from './featurize.js';
import type { FeatureSink } from './feature-sink.js';
import type { Indicator } from './shell-features.js';
import { weightSteps, type EncodedWeights } from './weights-codec.js';

/**
 * The semantic model: logistic regression over hashed features, one bias per kind, and per kind two maps of the
 * logit: `calibration` (class-balanced Platt scaling: the probability reported as `semantic.probability`) and
 * `risk` (a logistic curve through the out-of-fold operating points, see build-model.ts: 0.45 = MEDIUM and 0.75 =
 * HIGH on the decision layer's scale; used as the flag score). A chunk's logit is bias + Σ w[i] / √n
 * (length-normalised so long and short texts are comparable).
 */
export interface SemanticModel {
  /** Float32 for models trained in memory (cross-validation); the committed model keeps its stored int8 steps. */
  weights: Float32Array | QuantizedWeights;
  bias: Record<ModelKind, number>;
  calibration: Record<ModelKind, Platt>;
  risk: Record<ModelKind, Platt>;
}

/**
 * The committed model's weights as stored, int8 steps, with the 256 float32 values a step decodes to: a quarter of
 * the memory of float32 weights, so the few thousand random reads per chunk mostly hit the cache, and the very same
 * sums (each term is the float32 that decoding would store).
 */
export interface QuantizedWeights {
  steps: Int8Array;
  valueOfStep: Float64Array;
}

/** On-disk form (models/semantic.json), written by `npm run train`. */
export interface SemanticModelFile {
  _about: string;
  version: 1;
  bits: number;
  weights: EncodedWeights;
  bias: Record<ModelKind, number>;
  calibration: Record<ModelKind, Platt>;
  risk: Record<ModelKind, Platt>;
  training: Record<string, unknown>;
}

export function loadSemanticModel(file: SemanticModelFile): SemanticModel {
  if (file.bits !== BITS) throw new Error(`semantic model has ${file.bits} hash bits, config says ${BITS}: run npm run train`);
  for (const kind of MODEL_KINDS) {
    if (typeof file.bias[kind] !== 'number' || !file.calibration?.[kind] || !file.risk?.[kind]) {
      throw new Error(`semantic model lacks the bias, calibration or risk curve for ${kind}: run npm run train`);
    }
  }
  return {
    weights: { steps: weightSteps(file.weights, 1 << BITS), valueOfStep: stepValues(file.weights.scale) },
    bias: file.bias,
    calibration: file.calibration,
    risk: file.risk,
  };
}

/** valueOfStep[step + 128] = the float32 `decodeWeights` would store for that step. */
function stepValues(scale: number): Float64Array {
  const values = new Float64Array(256);
  for (let step = -128; step < 128; step++) values[step + 128] = Math.fround(step * scale);
  return values;
}

/** Σ weights over the first `n` of `indices`. */
export function sumWeights(model: SemanticModel, indices: Int32Array, n: number): number {
  const w = model.weights;
  let sum = 0;
  if (!(w instanceof Float32Array)) {
    const { steps, valueOfStep } = w;
    for (let i = 0; i < n; i++) sum += valueOfStep[steps[indices[i]] + 128];
    return sum;
  }
  for (let i = 0; i < n; i++) sum += w[indices[i]];
  return sum;
}

export function chunkLogit(model: SemanticModel, kind: ModelKind, sink: FeatureSink): number {
  const n = sink.length;
  if (n === 0) return model.bias[kind];
  return model.bias[kind] + sumWeights(model, sink.indices, n) / Math.sqrt(n);
}

export interface TextScore {
  logit: number;
  /** Calibrated probability (class-balanced Platt). */
  probability: number;
  /** Decision-scale risk score (operating-point anchored). */
  risk: number;
  /** The chunk that scored highest. */
  span: Span;
}

/** Scores `text` chunk by chunk and keeps the highest chunk. Matching command indicators go to `matched`. */
export function scoreText(
  model: SemanticModel,
  text: string,
  kind: ModelKind,
  sink: FeatureSink,
  matched?: Indicator[],
): TextScore {
  let best: TextScore | undefined;
  for (const span of chunkSpans(text)) {
    sink.reset();
    featurizeSpan(text, span, kind, sink, matched);
    const logit = chunkLogit(model, kind, sink);
    if (!best || logit > best.logit) best = { logit, probability: 0, risk: 0, span };
  }
  const top = best ?? { logit: model.bias[kind], probability: 0, risk: 0, span: { start: 0, end: 0 } };
  top.probability = applyPlatt(model.calibration[kind], top.logit);
  top.risk = riskOf(model, kind, top.logit);
  return top;
}

export function riskOf(model: SemanticModel, kind: ModelKind, logit: number): number {
  return applyPlatt(model.risk[kind], logit);
}
