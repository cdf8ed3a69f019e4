import config from '../../../config/causal.json' with { type: 'json' };
import lexicon from '../../../config/semantic-lexicon.json' with { type: 'json' };
import type { Span } from '../types.js';
import type { Segment } from './segments.js';

/**
 * Is a span used (an order the model would follow) or only mentioned (quoted, shown as code, discussed)?
 * Structural evidence: inside a fenced or inline code block, a markdown block quote, or quotation marks.
 * Linguistic evidence: discussion cues (examples, reported speech, security vocabulary) near the span.
 * config/causal.json holds the cue lists and the caps applied to each strength.
 */

export type MentionStrength = 'none' | 'weak' | 'strong';

const EXAMPLE = new RegExp(config.cues.example, 'i');
const REPORTED = new RegExp(config.cues.reported, 'i');
const SECURITY = new RegExp(config.cues.security, 'i');

const escape = (w: string): string => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** "your answer", "tu respuesta": the text talks about the assistant's own output. */
const RESPONSE_REFERENCE = new RegExp(`(^|[^\\p{L}])(${lexicon.possessives.map(escape).join('|')})\\s{1,3}(${lexicon.responseNouns.map(escape).join('|')})([^\\p{L}]|$)`, 'iu');
/** A sentence that opens with a task verb ("Add ...", "Include ...", "Please write ..."). */
const TASK_OPENING = new RegExp(`^[\\s"'“(*-]{0,4}(please\\s{1,3})?(${lexicon.taskVerbs.map(escape).join('|')})([^\\p{L}]|$)`, 'iu');
const SECOND_PERSON_ORDER = /\byou (must|should|will|need to|have to|are (now|required))\b/i;

/** Does this (unquoted) text give the assistant an order, as opposed to reporting or showing one? */
function addressesAssistant(unquoted: string): boolean {
  return RESPONSE_REFERENCE.test(unquoted) || TASK_OPENING.test(unquoted) || SECOND_PERSON_ORDER.test(unquoted);
}

/** How far back quoting and code fences are tracked: a chunk and a half. Keeps every check bounded. */
const LOOKBACK = 3072;

/** Start of the line containing `at`, looking back at most LOOKBACK chars. */
export function lineStartBefore(text: string, at: number): number {
  const floor = Math.max(0, at - LOOKBACK);
  for (let i = at - 1; i >= floor; i--) if (text.charCodeAt(i) === 10) return i + 1;
  return floor;
}

/** End of the line containing `at` (exclusive), looking ahead at most LOOKBACK chars. */
export function lineEndAfter(text: string, at: number): number {
  const ceiling = Math.min(text.length, at + LOOKBACK);
  for (let i = at; i < ceiling; i++) if (text.charCodeAt(i) === 10) return i;
  return ceiling;
}

/** Start of the paragraph containing `at` (after the last blank line), looking back at most LOOKBACK chars. */
function paragraphStart(text: string, at: number): number {
  const floor = Math.max(0, at - LOOKBACK);
  for (let i = at - 1; i > floor; i--) {
    if (text.charCodeAt(i) === 10 && text.charCodeAt(i - 1) === 10) return i + 1;
  }
  return floor;
}

function countOf(text: string, ch: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf(ch, from); i >= 0 && i < to; i = text.indexOf(ch, i + 1)) n++;
  return n;
}

function insideFence(text: string, span: Span): boolean {
  return countOf(text, '```', Math.max(0, span.start - LOOKBACK), span.start) % 2 === 1;
}

function insideInlineCode(text: string, span: Span): boolean {
  const before = countOf(text, '`', lineStartBefore(text, span.start), span.start);
  const after = countOf(text, '`', span.end, lineEndAfter(text, span.end));
  return before % 2 === 1 && after > 0;
}

function blockQuoted(text: string, span: Span): boolean {
  const lineStart = lineStartBefore(text, span.start);
  return /^\s{0,3}>/.test(text.slice(lineStart, lineStart + 8));
}

const OPENING = new Set(['“', '«', '「', '『', '„']);
const CLOSING = new Set(['”', '»', '」', '』', '“']);

/**
 * Splits the span into its quoted and unquoted characters, tracking quote state from the start of the paragraph:
 * ASCII double quotes toggle, typographic ones open and close. Linear in the paragraph.
 */
function quoteScan(text: string, span: Span): { share: number; outside: string } {
  const from = paragraphStart(text, span.start);
  const unquoted = { share: 0, outside: text.slice(span.start, span.end) };
  // A paragraph longer than the look-back has no reliable quote state: treat the span as unquoted.
  if (from === Math.max(0, span.start - LOOKBACK) && from > 0) return unquoted;
  let inside = false;
  let quotedChars = 0;
  let outside = '';
  const toggle = (c: string): void => {
    if (c === '"' || c === '`') inside = !inside;
    else if (!inside && OPENING.has(c)) inside = true;
    else if (inside && CLOSING.has(c)) inside = false;
  };
  for (let i = from; i < span.end; i++) {
    const c = text[i];
    const before: boolean = inside;
    toggle(c);
    if (before === inside && i >= span.start) {
      if (inside) quotedChars++;
      else outside += c;
    }
  }
  // A quotation must close: an unmatched opening quote does not make the rest of the text "quoted".
  if (inside) {
    const end = lineEndAfter(text, span.end);
    for (let i = span.end; i < end && inside; i++) toggle(text[i]);
    if (inside) return unquoted;
  }
  return { share: quotedChars / Math.max(1, span.end - span.start), outside };
}

/** Mostly inside quotation marks, or partly quoted and introduced by a reporting or example cue. */
function quoted(share: number, outside: string): boolean {
  if (share >= 0.85) return true;
  return share >= 0.3 && (EXAMPLE.test(outside) || REPORTED.test(outside) || SECURITY.test(outside));
}

export interface Provenance {
  code: boolean;
  quoted: boolean;
  cue: boolean;
  security: boolean;
  /** The span (or, for a code block, the sentence introducing it) orders the assistant to do something. */
  addressed: boolean;
}

export function provenanceOf(text: string, span: Span): Provenance {
  const window = text.slice(Math.max(0, span.start - config.cueWindow), Math.min(text.length, span.end + config.cueWindowAfter));
  const inner = text.slice(span.start, span.end);
  const code = insideFence(text, span) || insideInlineCode(text, span) || /^\s{0,3}```/.test(inner);
  const scan = quoteScan(text, span);
  // A code block is judged by the sentence that introduces it ("Add the following code to your solution:").
  const leadIn = code ? text.slice(lineStartBefore(text, Math.max(0, span.start - 1)), span.start) : '';
  return {
    code,
    quoted: quoted(scan.share, scan.outside) || blockQuoted(text, span),
    cue: EXAMPLE.test(window) || REPORTED.test(window),
    security: SECURITY.test(window),
    addressed: addressesAssistant(code ? leadIn : scan.outside),
  };
}

/**
 * None: the span orders the assistant (its quoted part is then a payload, not a quotation). Strong: shown as code
 * or quoted AND framed by a discussion cue. Weak: discussion cues and security vocabulary around unquoted text.
 * (Code alone is not enough: a planted instruction could sit in a code block. Documentation that is mostly code
 * is judged as a whole by documentMention.)
 */
export function mentionStrength(p: Provenance): MentionStrength {
  if (p.addressed) return 'none';
  const framed = p.cue || p.security;
  if ((p.code || p.quoted) && framed) return 'strong';
  if (p.cue && p.security) return 'weak';
  return 'none';
}

/**
 * Judges a whole chunk when no separable cause exists: documentation that is mostly code (a tutorial, a README)
 * and never orders the assistant is a weak mention; anything else is operative.
 */
export function documentMention(text: string, segments: readonly Segment[]): MentionStrength {
  let code = 0;
  let total = 0;
  for (const segment of segments) {
    const length = segment.end - segment.start;
    total += length;
    const p = provenanceOf(text, segment);
    if (p.addressed) return 'none';
    if (segment.code) code += length;
  }
  return total > 0 && code / total >= config.documentCodeShare ? 'weak' : 'none';
}
