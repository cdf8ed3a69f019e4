import config from '../../../config/causal.json' with { type: 'json' };
import { chunkLogit, riskOf, sumWeights, type SemanticModel } from '../semantic/model.js';
import { featurizeSpan, type ModelKind } from '../semantic/featurize.js';
import type { FeatureSink } from '../semantic/feature-sink.js';
import type { Span } from '../types.js';
import { segmentsOf, type Segment } from './segments.js';

/**
 * Counterfactual ablation: which segments of the flagged chunk carry the risk? Each segment's contribution is
 * the sum of its feature weights (scaled like the chunk's); the top segments are removed cumulatively and the
 * remainder re-scored, at most `maxRescores` times. If the risk score falls below `residualThreshold`, the
 * removed segments are the cause. If it never does, the risk is spread over the text (e.g. a whole jailbreak
 * persona) and there is no separable cause.
 */

export interface Cause {
  segments: Segment[];
  /** Risk score of the chunk with the cause removed. */
  residual: number;
  rescores: number;
}

export interface AblationResult {
  cause?: Cause;
  rescores: number;
  residual: number;
  /** The segments of the chunk (for judging it whole when no cause is separable). */
  segments: Segment[];
}

/** `chunkFeatures`: how many features the chunk has, when the caller already knows (the semantic layer counted them). */
export function findCause(model: SemanticModel, text: string, chunk: Span, kind: ModelKind, sink: FeatureSink, chunkFeatures?: number): AblationResult {
  const segments = segmentsOf(text, chunk, config.maxSegments);
  if (segments.length < 2) return { rescores: 0, residual: 1, segments };
  if (chunkFeatures === undefined) {
    sink.reset();
    featurizeSpan(text, chunk, kind, sink);
    chunkFeatures = sink.length;
  }
  const norm = 1 / Math.sqrt(Math.max(chunkFeatures, 1));
  const contributions = segments.map((segment) => {
    sink.reset();
    featurizeSpan(text, segment, kind, sink);
    return { segment, contribution: sumWeights(model, sink.indices, sink.length) * norm };
  });
  contributions.sort((a, b) => b.contribution - a.contribution || a.segment.start - b.segment.start);
  const removed: Segment[] = [];
  let residual = 1;
  let rescores = 0;
  for (const { segment, contribution } of contributions.slice(0, config.maxRescores)) {
    if (contribution <= 0) break;
    removed.push(segment);
    const remainder = without(text, chunk, removed);
    sink.reset();
    featurizeSpan(remainder, { start: 0, end: remainder.length }, kind, sink);
    residual = riskOf(model, kind, chunkLogit(model, kind, sink));
    rescores++;
    if (residual < config.residualThreshold) {
      return { cause: { segments: [...removed].sort((a, b) => a.start - b.start), residual, rescores }, rescores, residual, segments };
    }
  }
  return { rescores, residual, segments };
}

function without(text: string, chunk: Span, removed: readonly Segment[]): string {
  const sorted = [...removed].sort((a, b) => a.start - b.start);
  let out = '';
  let cursor = chunk.start;
  for (const s of sorted) {
    out += text.slice(cursor, s.start) + ' ';
    cursor = s.end;
  }
  return out + text.slice(cursor, chunk.end);
}
