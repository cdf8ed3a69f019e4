import type { Span } from '../types.js';
import { applyPlatt, type Platt } from './calibration.js';
import { BITS, chunkSpans, featurizeSpan, MODEL_KINDS, type ModelKind } from './featurize.js';
import type { FeatureSink } from './feature-sink.js';
import type { Indicator } from './shell-features.js';
import { decodeWeights, type EncodedWeights } from './weights-codec.js';

/**
 * The semantic model: logistic regression over hashed features, one bias per kind, and per kind two maps of the
 * logit: `calibration` (class-balanced Platt scaling: the probability reported as `semantic.probability`) and
 * `risk` (a logistic curve through the out-of-fold operating points, see build-model.ts: 0.45 = MEDIUM and 0.75 =
 * HIGH on the decision layer's scale; used as the flag score). A chunk's logit is bias + Σ w[i] / √n
 * (length-normalised so long and short texts are comparable).
 */
export interface SemanticModel {
  weights: Float32Array;
  bias: Record<ModelKind, number>;
  calibration: Record<ModelKind, Platt>;
  risk: Record<ModelKind, Platt>;
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
  return { weights: decodeWeights(file.weights, 1 << BITS), bias: file.bias, calibration: file.calibration, risk: file.risk };
}

export function chunkLogit(model: SemanticModel, kind: ModelKind, sink: FeatureSink): number {
  const n = sink.length;
  if (n === 0) return model.bias[kind];
  const w = model.weights;
  const idx = sink.indices;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += w[idx[i]];
  return model.bias[kind] + sum / Math.sqrt(n);
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
