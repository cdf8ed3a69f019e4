import type { Span } from '../types.js';

/**
 * Splits text into the units the causal arbiter removes one at a time: fenced code blocks whole, other text
 * at line breaks and sentence ends. Offsets are absolute. Linear; at most `maxSegments` are returned (the rest
 * of the range is merged into the last one) so the arbiter's work stays bounded.
 */
export interface Segment extends Span {
  code: boolean;
}

const SENTENCE_END = /[.!?。！？](?=\s|$)|\n/g;

export function segmentsOf(text: string, range: Span, maxSegments: number): Segment[] {
  const out: Segment[] = [];
  const pushText = (start: number, end: number): void => {
    SENTENCE_END.lastIndex = start;
    let cursor = start;
    while (cursor < end) {
      const m = SENTENCE_END.exec(text);
      const stop = m && m.index < end ? m.index + m[0].length : end;
      if (text.slice(cursor, stop).trim().length > 0) out.push({ start: cursor, end: stop, code: false });
      cursor = stop;
      if (!m || m.index >= end) break;
    }
  };
  let cursor = range.start;
  while (cursor < range.end) {
    const open = text.indexOf('```', cursor);
    if (open < 0 || open >= range.end) break;
    const close = text.indexOf('```', open + 3);
    const fenceEnd = close < 0 || close >= range.end ? range.end : close + 3;
    pushText(cursor, open);
    out.push({ start: open, end: fenceEnd, code: true });
    cursor = fenceEnd;
  }
  pushText(cursor, range.end);
  if (out.length > maxSegments) {
    const last = out[maxSegments - 1];
    out.length = maxSegments;
    out[maxSegments - 1] = { start: last.start, end: range.end, code: false };
  }
  return out;
}
