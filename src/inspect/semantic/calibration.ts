/**
 * Platt scaling (Platt 1999): p = σ(a·logit + b), fitted on out-of-fold logits so that the reported probability
 * reflects how often content scored like this was an attack on data the model had not seen. Newton's method
 * with backtracking, Platt's smoothed targets and a weak ridge towards (a, b) = (1, 0): when the out-of-fold
 * scores separate the classes perfectly the fit stays finite instead of running off to a step function.
 */
export interface Platt {
  a: number;
  b: number;
}

export const IDENTITY: Platt = { a: 1, b: 0 };
const RIDGE = 1;

export function sigmoid(z: number): number {
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

export function applyPlatt(p: Platt, logit: number): number {
  return sigmoid(p.a * logit + p.b);
}

function logLoss(logits: readonly number[], targets: readonly number[], weights: readonly number[], a: number, b: number): number {
  let loss = RIDGE * ((a - 1) ** 2 + b ** 2) / 2;
  for (let i = 0; i < logits.length; i++) {
    const z = a * logits[i] + b;
    // log(1 + e^z) − t·z, computed stably
    loss += weights[i] * ((z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z))) - targets[i] * z);
  }
  return loss;
}

/**
 * Class-balanced fit: both classes weigh the same in total, so the probability is the one an even prior would
 * give (0.75 ⇔ the content is three times likelier under the attack class). The labelled set's class ratios are
 * an artefact of how it was assembled (e.g. eight injected emails per clean one), not of real traffic.
 */
export function fitPlatt(logits: readonly number[], labels: readonly number[]): Platt {
  const positives = labels.filter((y) => y === 1).length;
  const negatives = labels.length - positives;
  if (positives === 0 || negatives === 0) return IDENTITY;
  const hi = (positives + 1) / (positives + 2);
  const lo = 1 / (negatives + 2);
  const targets = labels.map((y) => (y === 1 ? hi : lo));
  const weights = labels.map((y) => labels.length / (2 * (y === 1 ? positives : negatives)));
  let a = 1;
  let b = 0;
  let loss = logLoss(logits, targets, weights, a, b);
  for (let iter = 0; iter < 100; iter++) {
    let ga = RIDGE * (a - 1), gb = RIDGE * b, haa = RIDGE, hab = 0, hbb = RIDGE;
    for (let i = 0; i < logits.length; i++) {
      const x = logits[i];
      const p = sigmoid(a * x + b);
      const d = (p - targets[i]) * weights[i];
      const w = p * (1 - p) * weights[i];
      ga += d * x;
      gb += d;
      haa += w * x * x;
      hab += w * x;
      hbb += w;
    }
    const det = haa * hbb - hab * hab;
    if (det <= 0) break;
    const da = (hbb * ga - hab * gb) / det;
    const db = (haa * gb - hab * ga) / det;
    let step = 1;
    let next = logLoss(logits, targets, weights, a - da, b - db);
    while (next > loss && step > 1e-6) {
      step /= 2;
      next = logLoss(logits, targets, weights, a - step * da, b - step * db);
    }
    if (next > loss) break;
    a -= step * da;
    b -= step * db;
    const improved = loss - next;
    loss = next;
    if (improved < 1e-10) break;
  }
  return { a, b };
}
