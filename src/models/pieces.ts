import { judgeDocument } from '../inspect/segments/judge.js';
import { channelRegions, type Channel } from '../inspect/segments/split.js';
import type { InspectionContext, Span } from '../inspect/types.js';
import { CASCADE } from './folder.js';

/**
 * What the model reads of a text. A prompt, and a tool result no longer than `pieces.wholeChars` (one window or two),
 * is read whole. A longer tool result is read by its pieces: the model's cost grows with the tokens it reads, and an
 * indirect injection sits in a few sentences of a document, not in all of it. The pieces, in order of priority:
 * 1. the segment judge's candidate segments (src/inspect/segments/: text addressed to the assistant, an override, an
 *    action asked for from a hidden channel or from a break in the document), most suspicious first;
 * 2. the chunk the embedded injection model scored highest (in the decoded view it was found in, when it was decoded);
 * 3. the hidden channels an assistant reads and a person does not see (HTML comments, hidden elements, alt/title/aria
 *    text, code comments).
 * Each is widened by `contextChars` either side (cut at a space), overlapping pieces are merged, and at most `max`
 * pieces of at most `maxChars` characters in all are read. Pure.
 */
const HIDDEN: ReadonlySet<Channel> = new Set(['html_comment', 'hidden_element', 'attribute', 'code_comment']);
const { pieces: LIMITS } = CASCADE;

export function piecesOf(ctx: InspectionContext): string[] {
  const text = ctx.content;
  if (ctx.kind !== 'tool_result' || text.length <= LIMITS.wholeChars) return [text];
  const chunk = embeddedChunk(ctx);
  const spans: Span[] = [...judgeDocument(text).candidates];
  // The embedded model's chunk in a decoded view is read as decoded; in the original, as a span of it.
  const decoded = chunk && chunk.view !== text ? chunk.view.slice(chunk.start, chunk.end) : undefined;
  if (chunk && !decoded) spans.push({ start: chunk.start, end: chunk.end });
  for (const region of channelRegions(text)) if (HIDDEN.has(region.channel)) spans.push(region);

  const out: string[] = [];
  let budget = LIMITS.maxChars;
  if (decoded) {
    out.push(decoded.slice(0, budget));
    budget -= out[0].length;
  }
  for (const span of mergeSpans(spans.map((s) => widen(text, s, LIMITS.contextChars)))) {
    if (out.length >= LIMITS.max || budget <= 0) break;
    const piece = text.slice(span.start, Math.min(span.end, span.start + budget));
    out.push(piece);
    budget -= piece.length;
  }
  // Nothing found to read (no candidate, no chunk): the document's opening, where the embedded model's chunks start.
  return out.length > 0 ? out : [text.slice(0, LIMITS.maxChars)];
}

function embeddedChunk(ctx: InspectionContext): { view: string; start: number; end: number } | undefined {
  const start = ctx.signals['semantic.chunk_start'];
  const end = ctx.signals['semantic.chunk_end'];
  const view = ctx.views[ctx.signals['semantic.view_index'] ?? 0]?.text;
  if (start === undefined || end === undefined || view === undefined || end <= start) return undefined;
  return { view, start, end: Math.min(end, view.length) };
}

/** The span with `context` characters either side, its ends moved out to the nearest space (within 32 characters). */
export function widen(text: string, span: Span, context: number): Span {
  let start = Math.max(0, span.start - context);
  let end = Math.min(text.length, span.end + context);
  for (let i = 0; i < 32 && start > 0 && !/\s/.test(text[start - 1]); i++) start--;
  for (let i = 0; i < 32 && end < text.length && !/\s/.test(text[end]); i++) end++;
  return { start, end };
}

/**
 * Merges overlapping or touching spans, keeping the order of first appearance (priority): a span that overlaps an
 * earlier one extends it in place.
 */
export function mergeSpans(spans: readonly Span[]): Span[] {
  const merged: Span[] = [];
  for (const s of spans) {
    let into = merged.findIndex((m) => s.start <= m.end && s.end >= m.start);
    if (into === -1) {
      merged.push({ ...s });
      continue;
    }
    merged[into] = { start: Math.min(merged[into].start, s.start), end: Math.max(merged[into].end, s.end) };
    // The grown span may now reach others: fold them in.
    for (let j = merged.length - 1; j >= 0; j--) {
      if (j === into || merged[j].start > merged[into].end || merged[j].end < merged[into].start) continue;
      merged[into] = { start: Math.min(merged[into].start, merged[j].start), end: Math.max(merged[into].end, merged[j].end) };
      merged.splice(j, 1);
      if (j < into) into--;
    }
  }
  return merged;
}
