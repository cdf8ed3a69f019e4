import type { Span } from '../types.js';

/**
 * High-entropy blobs: long runs of base64/hex-alphabet characters (found by the character
 * scan) whose Shannon entropy is near that of random data. Data-URL payloads
 * (`data:image/png;base64,...`) are excluded: embedded images are ordinary content.
 */

export interface BlobStats {
  /** Total length of high-entropy blobs. */
  chars: number;
  count: number;
  first?: Span;
}

const SAMPLE = 4096;

/** Bits per character of the first `SAMPLE` characters of `text[start, end)`. */
export function shannonBits(text: string, start: number, end: number): number {
  const stop = Math.min(end, start + SAMPLE);
  const n = stop - start;
  if (n <= 0) return 0;
  const freq = new Map<number, number>();
  for (let i = start; i < stop; i++) {
    const c = text.charCodeAt(i);
    freq.set(c, (freq.get(c) ?? 0) + 1);
  }
  let bits = 0;
  for (const f of freq.values()) {
    const p = f / n;
    bits -= p * Math.log2(p);
  }
  return bits;
}

export function highEntropyBlobs(text: string, runs: readonly Span[], minBits: number): BlobStats {
  const stats: BlobStats = { chars: 0, count: 0 };
  for (const run of runs) {
    if (text.slice(Math.max(0, run.start - 7), run.start).toLowerCase() === 'base64,') continue;
    if (shannonBits(text, run.start, run.end) < minBits) continue;
    stats.chars += run.end - run.start;
    stats.count++;
    if (!stats.first) stats.first = run;
  }
  return stats;
}
