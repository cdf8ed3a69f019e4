import { FEATURE_NAMES, urlFeatures } from './features.js';
import type { UrlInfo } from './host.js';

/**
 * The phishing URL model: logistic regression over the generator-independent features of
 * features.ts. Training is pure and deterministic (full-batch gradient descent from zero, fixed
 * epochs, no sampling), so the committed model is reproducible from datasets/phishing/ and a
 * leave-one-source-out evaluation can retrain it without the held-out source.
 */

export interface PhishingModel {
  features: readonly string[];
  weights: number[];
  bias: number;
  /** Probability from which a URL is HIGH (score 0.75): the benign training quantile, never below 0.5. */
  threshold: number;
}

export interface PhishingTrainingRow {
  url: string;
  /** 1 = phishing, 0 = legitimate. */
  label: 0 | 1;
  /** Where the row comes from; each source weighs the same in training whatever its size. */
  source: string;
}

export interface PhishingTrainingOptions {
  epochs?: number;
  learningRate?: number;
  l2?: number;
  /** Share of benign training URLs allowed at or above the threshold. */
  benignQuantile?: number;
}

const DEFAULTS: Required<PhishingTrainingOptions> = { epochs: 600, learningRate: 0.5, l2: 0.001, benignQuantile: 0.005 };

function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}

export function probability(model: PhishingModel, x: readonly number[]): number {
  let z = model.bias;
  for (let i = 0; i < x.length; i++) z += model.weights[i] * x[i];
  return sigmoid(z);
}

/** Layer score: the threshold maps to 0.75 (HIGH), certainty to 0.95; below it the model alone stays under MEDIUM. */
export function modelScore(model: PhishingModel, info: UrlInfo): number {
  const p = probability(model, urlFeatures(info));
  if (p >= model.threshold) return 0.75 + (0.2 * (p - model.threshold)) / Math.max(1e-9, 1 - model.threshold);
  return (0.4 * p) / model.threshold;
}

export function checkModel(model: PhishingModel): PhishingModel {
  const same = model.features.length === FEATURE_NAMES.length && model.features.every((f, i) => f === FEATURE_NAMES[i]);
  if (!same || model.weights.length !== FEATURE_NAMES.length) {
    throw new Error('phishing model was trained on other features: retrain it (npx tsx scripts/eval-phishing.ts --write-model)');
  }
  return model;
}

export interface FeaturizedRow {
  x: number[];
  label: 0 | 1;
  source: string;
}

/** Pure trainer: the same rows give the same model, bit for bit. Rows whose URL does not parse are skipped. */
export function trainFromFeatures(rows: readonly FeaturizedRow[], options: PhishingTrainingOptions = {}): PhishingModel {
  const o = { ...DEFAULTS, ...options };
  const d = FEATURE_NAMES.length;
  // Each (source, label) pair weighs the same in total, so a 13,000-domain list does not drown a 300-URL one.
  const groupSize = new Map<string, number>();
  for (const r of rows) groupSize.set(`${r.source}\u0000${r.label}`, (groupSize.get(`${r.source}\u0000${r.label}`) ?? 0) + 1);
  const perLabelGroups = [0, 1].map((l) => [...groupSize.keys()].filter((k) => k.endsWith(`\u0000${l}`)).length);
  const weightOf = rows.map((r) => 1 / (groupSize.get(`${r.source}\u0000${r.label}`) as number) / Math.max(1, perLabelGroups[r.label]) / 2);
  const w = new Array<number>(d).fill(0);
  let b = 0;
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    const grad = new Array<number>(d).fill(0);
    let gb = 0;
    for (let n = 0; n < rows.length; n++) {
      const { x, label } = rows[n];
      let z = b;
      for (let i = 0; i < d; i++) z += w[i] * x[i];
      const err = (sigmoid(z) - label) * weightOf[n];
      for (let i = 0; i < d; i++) grad[i] += err * x[i];
      gb += err;
    }
    for (let i = 0; i < d; i++) w[i] -= o.learningRate * (grad[i] + o.l2 * w[i]) * 4;
    b -= o.learningRate * gb * 4;
  }
  const model: PhishingModel = { features: [...FEATURE_NAMES], weights: w.map(round), bias: round(b), threshold: 0.5 };
  const benign = rows.filter((r) => r.label === 0).map((r) => probability(model, r.x)).sort((a, c) => a - c);
  const at = Math.min(benign.length - 1, Math.floor(benign.length * (1 - o.benignQuantile)));
  model.threshold = round(Math.max(0.5, benign.length > 0 ? benign[at] + 1e-6 : 0.5));
  return model;
}

function round(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}
