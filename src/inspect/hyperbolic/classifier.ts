import { decodeWeights, type EncodedWeights } from '../semantic/weights-codec.js';
import { addDistanceGradient, expMap0, poincareDistance } from './poincare.js';
import { CATEGORY_NAMES, DIMENSIONS, NODES } from './taxonomy.js';

/**
 * Places content in the taxonomy: a learned linear map W (hashed features → tangent space at the origin),
 * the exponential map into the Poincaré ball, then a softmax over negative hyperbolic distances to the node
 * prototypes. The answer is the most specific node it is confident about: the best leaf when it holds most of its
 * category's mass, else the category, else nothing.
 */

export interface HyperbolicModelFile {
  _about: string;
  version: 1;
  bits: number;
  dimensions: number;
  temperature: number;
  weights: EncodedWeights;
  /** Taxonomy paths seen in training: only these categories are proposed. */
  trainedPaths: string[];
  training: Record<string, unknown>;
}

export interface HyperbolicModel {
  bits: number;
  mask: number;
  temperature: number;
  /** Column-major: bucket j occupies [j·D, (j+1)·D). */
  weights: Float32Array;
  trainedCategories: ReadonlySet<string>;
}

export interface Placement {
  path: string;
  category: string;
  /** Posterior mass of the category subtree and of the chosen node. */
  categoryConfidence: number;
  confidence: number;
  /** Hyperbolic distance of the embedding from the origin: larger means more specific. */
  depth: number;
}

export function loadHyperbolicModel(file: HyperbolicModelFile): HyperbolicModel {
  if (file.dimensions !== DIMENSIONS) throw new Error('hyperbolic model dimensions differ from config/taxonomy.json: run npm run train');
  return {
    bits: file.bits,
    mask: (1 << file.bits) - 1,
    temperature: file.temperature,
    weights: decodeWeights(file.weights, (1 << file.bits) * DIMENSIONS),
    trainedCategories: new Set(file.trainedPaths.map((p) => p.split('/')[0])),
  };
}

/**
 * Short content (up to SUBSAMPLE_ABOVE features, e.g. most shell commands) is projected whole. Longer content
 * reads a fixed quarter of its features: those whose hash bucket is ≡ 0 (mod 4). Buckets are uniformly
 * distributed, so this is an unbiased subsample that makes the 16-dimensional projection four times cheaper
 * (one cache line per feature). Training and inference apply the same rule.
 */
const SUBSAMPLE_ABOVE = 1024;

export function projectedFeatures(indices: ArrayLike<number>, length: number): Int32Array {
  const out: number[] = [];
  for (let i = 0; i < length; i++) if (length <= SUBSAMPLE_ABOVE || (indices[i] & 3) === 0) out.push(indices[i]);
  return Int32Array.from(out);
}

/** Tangent vector y = W·x over the projected features (each occurrence weighs 1/√n, as in the semantic model). */
export function tangentOf(
  weights: ArrayLike<number>,
  mask: number,
  indices: ArrayLike<number>,
  length: number,
  out: Float64Array,
  subsample: boolean = length > SUBSAMPLE_ABOVE,
): void {
  out.fill(0);
  let n = 0;
  for (let i = 0; i < length; i++) {
    const index = indices[i];
    if (subsample && (index & 3) !== 0) continue;
    const base = (index & mask) * DIMENSIONS;
    for (let d = 0; d < DIMENSIONS; d++) out[d] += weights[base + d];
    n++;
  }
  if (n === 0) return;
  const norm = 1 / Math.sqrt(n);
  for (let d = 0; d < DIMENSIONS; d++) out[d] *= norm;
}

/** Softmax over −distance/temperature to every node; nodes outside `allowed` categories get 0. */
export function nodePosterior(z: Float64Array, temperature: number, allowed?: ReadonlySet<string>): Float64Array {
  const scores = new Float64Array(NODES.length);
  let max = -Infinity;
  NODES.forEach((node, i) => {
    scores[i] = allowed && !allowed.has(node.category) ? -Infinity : -poincareDistance(z, node.point) / temperature;
    if (scores[i] > max) max = scores[i];
  });
  let sum = 0;
  for (let i = 0; i < scores.length; i++) {
    scores[i] = scores[i] === -Infinity ? 0 : Math.exp(scores[i] - max);
    sum += scores[i];
  }
  for (let i = 0; i < scores.length; i++) scores[i] /= sum || 1;
  return scores;
}

export interface PlacementThresholds {
  category: number;
  leaf: number;
}

/**
 * `evidence` (optional): taxonomy paths with a count of independent pieces of evidence for them (e.g. matching
 * command indicators). Each piece multiplies the node's posterior by (1 + EVIDENCE_WEIGHT) before
 * renormalising, so the geometry decides unless there is direct evidence for a specific leaf.
 */
const EVIDENCE_WEIGHT = 2;

export function place(
  model: HyperbolicModel,
  indices: ArrayLike<number>,
  length: number,
  allowed: ReadonlySet<string>,
  thresholds: PlacementThresholds,
  evidence?: ReadonlyMap<string, number>,
): Placement | undefined {
  const y = new Float64Array(DIMENSIONS);
  const z = new Float64Array(DIMENSIONS);
  tangentOf(model.weights, model.mask, indices, length, y);
  expMap0(y, z);
  const permitted = new Set([...allowed].filter((c) => model.trainedCategories.has(c)));
  if (permitted.size === 0) return undefined;
  const posterior = nodePosterior(z, model.temperature, permitted);
  if (evidence && evidence.size > 0) {
    let sum = 0;
    NODES.forEach((node, i) => {
      posterior[i] *= (1 + EVIDENCE_WEIGHT) ** (evidence.get(node.path) ?? 0);
      sum += posterior[i];
    });
    for (let i = 0; i < posterior.length; i++) posterior[i] /= sum || 1;
  }
  let bestCategory = '';
  let bestMass = -1;
  for (const category of CATEGORY_NAMES) {
    let mass = 0;
    NODES.forEach((node, i) => {
      if (node.category === category) mass += posterior[i];
    });
    if (mass > bestMass) {
      bestMass = mass;
      bestCategory = category;
    }
  }
  if (bestMass < thresholds.category) return undefined;
  let bestLeaf = -1;
  NODES.forEach((node, i) => {
    if (node.category === bestCategory && node.leaf && (bestLeaf < 0 || posterior[i] > posterior[bestLeaf])) bestLeaf = i;
  });
  const depth = 2 * Math.atanh(Math.min(Math.sqrt(z.reduce((s, v) => s + v * v, 0)), 1 - 1e-12));
  if (bestLeaf >= 0 && posterior[bestLeaf] / bestMass >= thresholds.leaf) {
    return { path: NODES[bestLeaf].path, category: bestCategory, categoryConfidence: bestMass, confidence: posterior[bestLeaf], depth };
  }
  return { path: bestCategory, category: bestCategory, categoryConfidence: bestMass, confidence: bestMass, depth };
}

/** One gradient of the cross-entropy of the node softmax w.r.t. z (used by training). */
export function posteriorGradient(z: Float64Array, temperature: number, target: number, gz: Float64Array): number {
  const posterior = nodePosterior(z, temperature);
  gz.fill(0);
  NODES.forEach((node, i) => {
    const coefficient = -(posterior[i] - (i === target ? 1 : 0)) / temperature;
    if (coefficient !== 0) addDistanceGradient(z, node.point, coefficient, gz);
  });
  return -Math.log(Math.max(posterior[target], 1e-12));
}
