/**
 * Compact storage of a weight vector: symmetric int8 quantisation with one scale, base64-encoded.
 * 2^18 weights take 256 KiB (≈ 350 KB as base64) instead of 1 MiB as float32 or ~5 MB as JSON numbers.
 * The rounding error (≤ scale/2 per weight) is far below the weights that matter.
 */
export interface EncodedWeights {
  scale: number;
  data: string;
}

export function encodeWeights(weights: ArrayLike<number>): EncodedWeights {
  let max = 0;
  for (let i = 0; i < weights.length; i++) max = Math.max(max, Math.abs(weights[i]));
  const scale = max > 0 ? max / 127 : 1;
  const bytes = new Int8Array(weights.length);
  for (let i = 0; i < weights.length; i++) bytes[i] = Math.round(weights[i] / scale);
  return { scale, data: Buffer.from(bytes.buffer).toString('base64') };
}

/** The stored int8 steps (each weight is step × `encoded.scale`). */
export function weightSteps(encoded: EncodedWeights, length: number): Int8Array {
  const raw = Buffer.from(encoded.data, 'base64');
  if (raw.length !== length) throw new Error(`weight vector has ${raw.length} entries, expected ${length}`);
  return new Int8Array(raw.buffer, raw.byteOffset, raw.length);
}

export function decodeWeights(encoded: EncodedWeights, length: number): Float32Array {
  const bytes = weightSteps(encoded, length);
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) out[i] = bytes[i] * encoded.scale;
  return out;
}
