import type { Flag, Span, Verdict } from '../inspect/types.js';

/**
 * Quarantine of a tool result that holds an injection (tenant policy `tool_result_injection: quarantine`): the
 * segments the segment judge located (src/inspect/segments/, its `addressed_instruction` flag's span) are replaced by
 * a marker the model can read, in the result's own coordinates, and the rewritten text is judged again; the result is
 * forwarded only when the rewrite is judged safe. Pure: ranges, their rendering and the report, never I/O.
 *
 * The removed ranges are kept in the ORIGINAL text's offsets and the text is re-rendered from the original each round:
 * a later round's span (found in the rewritten text) is mapped back through the markers, so a span that runs into a
 * marker joins the range that marker stands for. A span the mapping cannot place fails closed (the result is blocked).
 */

export const QUARANTINE_MARKER = '[Bastion removed text addressed to the assistant]';
/** What stands for a phishing link cut from a result the flow policy contains: the model can still say a link was there. */
export const LINK_MARKER = '[Bastion removed a suspicious link]';

/** Rounds of cut-and-judge-again: an injection in more separate places than this is not confined. */
export const MAX_ROUNDS = 3;
/**
 * The share of a result's letters and digits that must survive: an injection that is most of the result is the result
 * (a page written to attack), blocked as before rather than forwarded as a page of markers.
 */
export const MIN_KEPT_SHARE = 0.4;

/** One removed range, in the original text's offsets, with the segment judge's reason (its evidence names, no text). */
export interface RemovedRange extends Span {
  reason: string;
  /** The text that replaces it (QUARANTINE_MARKER unless said otherwise). */
  marker?: string;
}

const markerOf = (r: Span & { marker?: string }): string => r.marker ?? QUARANTINE_MARKER;

/** What the verdict reports of one quarantined result: where, how many segments, why, how long — never content. */
export interface QuarantineEntry {
  stage: 'request' | 'tool_result';
  /** Chat/Messages/Responses: the message or item index; the call id the result answers, when known. */
  message?: number;
  call_id?: string;
  segments: number;
  reasons: string[];
  /** Offsets and lengths in the result as it was received (characters). */
  removed: { start: number; end: number; length: number }[];
  /** Characters of the result as received. */
  length: number;
}

/** The segment judge's located span on a verdict, with its reason; undefined when no layer with spans confined it. */
export function segmentSpanOf(verdict: Pick<Verdict, 'flags'>): (Span & { reason: string }) | undefined {
  const flag = verdict.flags.find((f: Flag) => f.layer === 'causal' && f.type === 'addressed_instruction' && f.span);
  if (!flag?.span) return undefined;
  // The detail starts "segment (<channel>) <reason>": only the reason's evidence names are kept (no content is in it).
  const reason = /^segment \(([a-z_]{1,20})\) ([a-z_+]{1,80})/.exec(flag.detail ?? '');
  return { start: flag.span.start, end: flag.span.end, reason: reason ? `${reason[1]}:${reason[2]}` : 'segment' };
}

/** The text with the ranges (sorted, disjoint, in the original's offsets) replaced by the marker. */
export function render(original: string, ranges: readonly (Span & { marker?: string })[]): string {
  let out = '';
  let cursor = 0;
  for (const r of ranges) {
    out += original.slice(cursor, r.start) + markerOf(r);
    cursor = r.end;
  }
  return out + original.slice(cursor);
}

/**
 * Maps a span of the rendered text back to the original and merges it into the ranges. Undefined when it cannot be
 * placed (out of bounds, empty): the caller fails closed.
 */
export function addSpan(original: string, ranges: readonly RemovedRange[], span: Span, reason: string, marker?: string): RemovedRange[] | undefined {
  const renderedLength = render(original, ranges).length;
  if (!Number.isInteger(span.start) || !Number.isInteger(span.end) || span.start < 0 || span.end > renderedLength || span.end <= span.start) return undefined;
  const start = toOriginal(ranges, span.start, 'start');
  const end = toOriginal(ranges, span.end, 'end');
  if (end <= start || end > original.length) return undefined;
  const merged: RemovedRange[] = [];
  let added: RemovedRange = { start, end, reason, ...(marker ? { marker } : {}) };
  for (const r of ranges) {
    if (r.end < added.start || r.start > added.end) merged.push(r);
    // A joined range stands for text addressed to the assistant as soon as one of its parts did.
    else added = { start: Math.min(r.start, added.start), end: Math.max(r.end, added.end), reason: added.reason === r.reason ? r.reason : `${r.reason},${added.reason}`, ...(r.marker && added.marker ? { marker: added.marker } : {}) };
  }
  merged.push(added);
  return merged.sort((a, b) => a.start - b.start);
}

/** A position of the rendered text in the original: inside a marker, the start (or end) of the range it stands for. */
function toOriginal(ranges: readonly RemovedRange[], pos: number, side: 'start' | 'end'): number {
  let shift = 0; // rendered - original, up to the current point
  for (const r of ranges) {
    const markerStart = r.start + shift;
    const markerEnd = markerStart + markerOf(r).length;
    if (pos <= markerStart) return pos - shift;
    if (pos < markerEnd) return side === 'start' ? r.start : r.end;
    shift += markerOf(r).length - (r.end - r.start);
  }
  return pos - shift;
}

const WORD_CHAR = /[\p{L}\p{N}]/gu;
const wordChars = (s: string): number => s.match(WORD_CHAR)?.length ?? 0;

/** Whether enough of the result survives the cut for the cut to be a quarantine rather than the whole result. */
export function keepsEnough(original: string, ranges: readonly Span[]): boolean {
  const total = wordChars(original);
  if (total === 0) return false;
  const removed = ranges.reduce((n, r) => n + wordChars(original.slice(r.start, r.end)), 0);
  return (total - removed) / total >= MIN_KEPT_SHARE;
}

/** The verdict's entry for one quarantined result: counts, reasons and offsets, never the text. */
export function entryOf(original: string, ranges: readonly RemovedRange[], where: { stage: QuarantineEntry['stage']; message?: number; call_id?: string }): QuarantineEntry {
  const reasons = [...new Set(ranges.flatMap((r) => r.reason.split(',')))].slice(0, 8);
  return {
    stage: where.stage,
    ...(where.message !== undefined ? { message: where.message } : {}),
    ...(where.call_id !== undefined ? { call_id: where.call_id.slice(0, 128) } : {}),
    segments: ranges.length,
    reasons,
    removed: ranges.map((r) => ({ start: r.start, end: r.end, length: r.end - r.start })),
    length: original.length,
  };
}

/** `x-bastion-quarantine`: `2; message=3 call_id=call_1 segments=1 reasons=text:addressed+send, message=5 segments=2 …` (bounded). */
export function quarantineHeader(entries: readonly QuarantineEntry[]): string {
  const parts = entries.slice(0, 16).map((e) => {
    const at = [e.message !== undefined ? `message=${e.message}` : '', e.call_id !== undefined ? `call_id=${e.call_id.replace(/[^\w.-]/g, '_').slice(0, 64)}` : ''].filter(Boolean);
    return `${at.join(' ') || 'result'} segments=${e.segments} reasons=${e.reasons.join('|')}`;
  });
  return `${entries.length}; ${parts.join(', ')}`;
}
