import config from '../../../config/segments.json' with { type: 'json' };
import { segmentsOf } from '../causal/segments.js';
import type { Span } from '../types.js';

/**
 * Splits a tool result into the segments the segment judge scores: the hidden channels an assistant reads and a
 * person does not see (HTML comments, hidden elements, alt/title/aria text, code comments), JSON string values,
 * e-mail headers apart from the body, and the visible text at sentence and line ends (src/inspect/causal/segments.ts).
 * Offsets are absolute. Every regular expression is bounded (no nested quantifiers, lengths capped) and the number of
 * segments is capped (config/segments.json `limits`), so splitting stays linear in the scanned prefix.
 */

export type Channel = 'text' | 'html_comment' | 'hidden_element' | 'attribute' | 'code_comment' | 'json_value' | 'email_header' | 'email_body';

export interface ChannelSegment extends Span {
  channel: Channel;
}

const { limits } = config;

const HTML_COMMENT = /<!\s{0,2}--([\s\S]{0,4000}?)--\s{0,2}>/g;
const HIDDEN_ELEMENT =
  /<([a-z][a-z0-9]{0,10})\b[^>]{0,400}?(?:\shidden\b|display\s{0,2}:\s{0,2}none|visibility\s{0,2}:\s{0,2}hidden|font-size\s{0,2}:\s{0,2}0(?:px|pt|em)?\b|opacity\s{0,2}:\s{0,2}0(?:\.0)?\b|aria-hidden\s{0,2}=\s{0,2}["']?true)[^>]{0,400}>([\s\S]{0,4000}?)<\/\1\s{0,2}>/gi;
const ATTRIBUTE = /\s(?:alt|title|aria-label|aria-description|aria-describedby|placeholder|data-[a-z-]{1,30})\s{0,2}=\s{0,2}(?:"([^"]{1,2000})"|'([^']{1,2000})')/gi;
const BLOCK_COMMENT = /\/\*([\s\S]{0,4000}?)\*\//g;
const LINE_COMMENT = /(?:^|[ \t;])(?:\/\/|#(?!#)|--(?=[ \t]))[ \t]?([^\n]{1,1000})/gm;
const CODE_SIGNAL = /^\s{0,8}(?:def |class |import |from \S+ import |function |const |let |var |public |private |#include|package |fn |func )|[;{}]\s*$/m;
const JSON_VALUE = /(["'])([^"'\n]{1,60})\1\s{0,3}:\s{0,3}(?:"((?:[^"\\\n]|\\.){1,4000})"|'((?:[^'\\\n]|\\.){1,4000})')/g;
const HEADER_LINE = /^(?:from|to|cc|bcc|subject|date|reply-to|sender|return-path|message-id|von|an|betreff|de|para|asunto|objet|da|oggetto|assunto|от|кому|тема)\s{0,2}:[^\n]{0,500}$/gim;

/** Pushes the sentences of one region, tagged with its channel. */
function pushRegion(text: string, start: number, end: number, channel: Channel, out: ChannelSegment[]): void {
  if (end <= start) return;
  for (const s of segmentsOf(text, { start, end }, limits.maxSegments)) {
    if (out.length >= limits.maxSegments) return;
    // Long segments (a paragraph without punctuation, a minified blob) are cut so a cue far away does not join them.
    for (let from = s.start; from < s.end && out.length < limits.maxSegments; from += limits.maxSegmentChars) {
      out.push({ start: from, end: Math.min(s.end, from + limits.maxSegmentChars), channel });
    }
  }
}

function collect(re: RegExp, text: string, channel: Channel, regions: ChannelSegment[], group: (m: RegExpExecArray) => number): void {
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null && regions.length < limits.maxSegments) {
    const g = group(m);
    const inner = m[g];
    if (inner === undefined || inner.trim().length === 0) continue;
    const start = m.index + m[0].indexOf(inner);
    regions.push({ start, end: start + inner.length, channel });
  }
}

/** The channel regions of a text (hidden channels, JSON values, e-mail headers), non-overlapping, sorted. */
export function channelRegions(text: string): ChannelSegment[] {
  const regions: ChannelSegment[] = [];
  if (text.includes('<')) {
    collect(HTML_COMMENT, text, 'html_comment', regions, () => 1);
    collect(HIDDEN_ELEMENT, text, 'hidden_element', regions, () => 2);
    collect(ATTRIBUTE, text, 'attribute', regions, (m) => (m[1] !== undefined ? 1 : 2));
  }
  if (text.includes('/*')) collect(BLOCK_COMMENT, text, 'code_comment', regions, () => 1);
  if (CODE_SIGNAL.test(text)) collect(LINE_COMMENT, text, 'code_comment', regions, () => 1);
  if (/^\s{0,4}[[{]/.test(text)) collect(JSON_VALUE, text, 'json_value', regions, (m) => (m[3] !== undefined ? 3 : 4));
  HEADER_LINE.lastIndex = 0;
  const header = HEADER_LINE.exec(text);
  if (header && header.index < 200) {
    // The header block: the run of header lines at the top; the body follows it.
    let end = header.index + header[0].length;
    for (let m = HEADER_LINE.exec(text); m && m.index <= end + 2; m = HEADER_LINE.exec(text)) end = m.index + m[0].length;
    regions.push({ start: header.index, end, channel: 'email_header' });
    regions.push({ start: end, end: text.length, channel: 'email_body' });
  }
  regions.sort((a, b) => a.start - b.start || b.end - a.end);
  // Nested regions (an attribute inside a hidden element, a JSON value in an e-mail body) keep the first, outer one's
  // place but the inner, more specific channel wins for its own characters: split the outer around it.
  const flat: ChannelSegment[] = [];
  for (const r of regions) {
    const last = flat[flat.length - 1];
    if (!last || r.start >= last.end) flat.push(r);
    else if (r.channel !== 'email_body') {
      const tail = { start: r.end, end: last.end, channel: last.channel };
      last.end = r.start;
      flat.push(r);
      if (tail.end > tail.start) flat.push(tail);
    }
  }
  return flat.filter((r) => r.end > r.start);
}

/** Every segment of the text (its first `limits.maxChars` characters), in order. */
export function splitSegments(text: string): ChannelSegment[] {
  const end = Math.min(text.length, limits.maxChars);
  const scanned = end < text.length ? text.slice(0, end) : text;
  const out: ChannelSegment[] = [];
  let cursor = 0;
  for (const region of channelRegions(scanned)) {
    pushRegion(scanned, cursor, region.start, 'text', out);
    pushRegion(scanned, region.start, Math.min(region.end, region.start + limits.maxChannelChars), region.channel, out);
    cursor = region.end;
  }
  pushRegion(scanned, cursor, end, 'text', out);
  return out;
}
