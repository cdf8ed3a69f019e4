import settings from '../../../config/semantic.json' with { type: 'json' };
import type { Kind, Span } from '../types.js';
import { FeatureSink } from './feature-sink.js';
import { fnv1a } from './hashing.js';
import { conceptFeatures } from './concept-features.js';
import { shellFeatures, type Indicator } from './shell-features.js';
import { textFeatures } from './text-features.js';

/**
 * Turns content into hashed feature indices, chunk by chunk. Long content is cut into chunks of at most
 * `chunkChars` (at a line or sentence boundary when one is near) and scored chunk by chunk, the content's score
 * being the highest chunk's: an instruction hidden in a 100 KB document is not diluted by the rest, and the
 * cost stays linear. Training uses the very same chunking.
 */

/** The model is conditioned on three kinds; model output is screened like data returned to the caller. */
export type ModelKind = 'prompt' | 'tool_result' | 'tool_call';
export const MODEL_KINDS: readonly ModelKind[] = ['prompt', 'tool_result', 'tool_call'];

export function modelKind(kind: Kind): ModelKind {
  return kind === 'output' ? 'tool_result' : kind;
}

export const BITS: number = settings.bits;
export const CHUNK_CHARS: number = settings.chunkChars;

const KIND_SALT: Record<ModelKind, number> = {
  prompt: fnv1a('kind:prompt'),
  tool_result: fnv1a('kind:tool_result'),
  tool_call: fnv1a('kind:tool_call'),
};

/** Last position p in (floor, end] such that text[p - 1] ends a break of kind `code`, or -1. Bounded scan. */
function breakBefore(text: string, floor: number, end: number, code: number, needsSpaceAfter: boolean): number {
  for (let i = end - 1; i > floor; i--) {
    if (text.charCodeAt(i - 1) === code && (!needsSpaceAfter || text.charCodeAt(i) === 32)) return i;
  }
  return -1;
}

/**
 * Chunk boundaries: cut after the last newline, else sentence end, else space in the last quarter of a chunk.
 * The backward search never goes below that quarter, so chunking is linear even without any break.
 */
export function chunkSpans(text: string, maxChars: number = CHUNK_CHARS): Span[] {
  const spans: Span[] = [];
  let start = 0;
  while (text.length - start > maxChars) {
    const hardEnd = start + maxChars;
    const floor = start + Math.floor(maxChars * 0.75);
    let cut = breakBefore(text, floor, hardEnd, 10, false);
    if (cut < 0) cut = breakBefore(text, floor, hardEnd, 46, true);
    if (cut < 0) cut = breakBefore(text, floor, hardEnd, 32, false);
    if (cut < 0) cut = hardEnd;
    spans.push({ start, end: cut });
    start = cut;
  }
  spans.push({ start, end: text.length });
  return spans;
}

/** Appends the features of `text[span]` read as `kind` to `sink` (which the caller resets). */
export function featurizeSpan(text: string, span: Span, kind: ModelKind, sink: FeatureSink, matched?: Indicator[]): void {
  const chunk = text.slice(span.start, span.end);
  const lower = chunk.toLowerCase();
  textFeatures(lower, KIND_SALT[kind], sink);
  if (kind === 'tool_call') shellFeatures(lower, sink, matched);
  // The chunk as it is (the concept reader lower-cases as it scans): a prompt of one chunk is then the very string the
  // harmful-intent judge reads next, and its reading is reused (concepts/lexicon.ts).
  else conceptFeatures(chunk, KIND_SALT[kind], sink);
}

export function newSink(): FeatureSink {
  return new FeatureSink(BITS);
}

/** Training helper: the feature indices of every chunk of `text`. */
export function featurizeChunks(text: string, kind: ModelKind, sink: FeatureSink = newSink()): Int32Array[] {
  return chunkSpans(text).map((span) => {
    sink.reset();
    featurizeSpan(text, span, kind, sink);
    return sink.snapshot();
  });
}
