import type { FeatureSink } from './feature-sink.js';

/**
 * The semantic model's features of the chunk it scored highest, left in the semantic layer's sink. The hyperbolic
 * brain and the causal arbiter read that very chunk next (same text, span and kind); featurizing it again costs as
 * much as the first time (character n-grams, words, the concept automaton), so they read the sink instead, as long
 * as nothing has reset it since (`stamp`).
 */
export interface ChunkFeatures {
  /** Index in ctx.views of the view the chunk lies in. */
  readonly viewIndex: number;
  readonly start: number;
  readonly end: number;
  readonly sink: FeatureSink;
  /** `sink.stamp` when the chunk was featurized. */
  readonly stamp: number;
}

/** The features in `f` when it still describes chunk [start, end) of view `viewIndex`, else undefined. */
export function featuresOf(
  f: ChunkFeatures | undefined,
  viewIndex: number,
  start: number,
  end: number,
): { indices: Int32Array; length: number } | undefined {
  if (!f || f.viewIndex !== viewIndex || f.start !== start || f.end !== end || f.sink.stamp !== f.stamp) return undefined;
  return { indices: f.sink.indices, length: f.sink.length };
}
