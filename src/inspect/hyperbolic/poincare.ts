/**
 * Poincaré-ball geometry (curvature −1) for small dense vectors.
 * Distance and its gradient follow Nickel & Kiela 2017 ("Poincaré Embeddings for Learning Hierarchical
 * Representations", eq. 1 and 4); the exponential map at the origin is exp₀(v) = tanh(‖v‖)·v/‖v‖.
 */

const EPS = 1e-9;
/** Keeps points strictly inside the ball so that 1 − ‖x‖² never reaches 0. */
export const MAX_TANGENT_NORM = 6;

export function norm2(v: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  return s;
}

/** exp₀(y): maps a tangent vector at the origin into the ball (in place into `out`). */
export function expMap0(y: ArrayLike<number>, out: Float64Array): void {
  const r = Math.min(Math.sqrt(norm2(y)), MAX_TANGENT_NORM);
  const raw = Math.sqrt(norm2(y));
  const f = raw < EPS ? 1 : Math.tanh(r) / raw;
  for (let i = 0; i < out.length; i++) out[i] = y[i] * f;
}

/** A point at hyperbolic distance `radius` from the origin along unit direction `u`. */
export function pointAt(u: ArrayLike<number>, radius: number): Float64Array {
  const n = Math.sqrt(norm2(u));
  const scale = Math.tanh(radius / 2) / (n || 1);
  const out = new Float64Array(u.length);
  for (let i = 0; i < u.length; i++) out[i] = u[i] * scale;
  return out;
}

export function poincareDistance(x: ArrayLike<number>, v: ArrayLike<number>): number {
  let diff = 0, nx = 0, nv = 0;
  for (let i = 0; i < x.length; i++) {
    const d = x[i] - v[i];
    diff += d * d;
    nx += x[i] * x[i];
    nv += v[i] * v[i];
  }
  const gamma = 1 + (2 * diff) / Math.max((1 - nx) * (1 - nv), EPS);
  return Math.acosh(Math.max(gamma, 1));
}

/** Adds scale·∂d(x, v)/∂x to `grad`. */
export function addDistanceGradient(x: ArrayLike<number>, v: ArrayLike<number>, scale: number, grad: Float64Array): void {
  let diff = 0, nx = 0, nv = 0, dot = 0;
  for (let i = 0; i < x.length; i++) {
    const d = x[i] - v[i];
    diff += d * d;
    nx += x[i] * x[i];
    nv += v[i] * v[i];
    dot += x[i] * v[i];
  }
  const alpha = Math.max(1 - nx, EPS);
  const beta = Math.max(1 - nv, EPS);
  const gamma = 1 + (2 * diff) / (alpha * beta);
  const root = Math.sqrt(Math.max(gamma * gamma - 1, EPS));
  const c = (4 / (beta * root)) * scale;
  const a = (nv - 2 * dot + 1) / (alpha * alpha);
  for (let i = 0; i < x.length; i++) grad[i] += c * (a * x[i] - v[i] / alpha);
}

/** Chain rule through exp₀: turns ∂L/∂z into ∂L/∂y for z = exp₀(y). */
export function backpropExpMap0(y: ArrayLike<number>, gz: Float64Array, out: Float64Array): void {
  const raw = Math.sqrt(norm2(y));
  if (raw < EPS) {
    out.set(gz);
    return;
  }
  const clipped = raw > MAX_TANGENT_NORM;
  const r = Math.min(raw, MAX_TANGENT_NORM);
  const t = Math.tanh(r);
  let ug = 0;
  for (let i = 0; i < y.length; i++) ug += (y[i] / raw) * gz[i];
  const radial = clipped ? 0 : 1 - t * t;
  for (let i = 0; i < y.length; i++) {
    const u = y[i] / raw;
    out[i] = (t / raw) * (gz[i] - u * ug) + radial * u * ug;
  }
}
