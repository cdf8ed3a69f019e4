import config from '../../../config/obfuscation.json' with { type: 'json' };
import type { InspectionContext, Layer, Span } from '../types.js';
import { decodeHidden, stripInvisible, unstripOffset } from '../decode/invisible.js';
import { fold } from '../decode/normalize.js';
import { unescapeInline } from '../decode/escapes.js';
import { joinSpacedLetters } from '../decode/spaced.js';
import { decodeLeet, leetIsMeaningful } from '../decode/leet.js';
import { decodeCiphers } from '../decode/ciphers.js';
import { decodeBlocks } from '../decode/encodings.js';
import { isTextLike } from '../decode/text-like.js';

/**
 * Layer 2 — obfuscation decoder. Adds normalised and decoded readings of the content to
 * ctx.views for every later layer to scan. A view is added only when it says something the
 * existing views do not (each view costs every later layer a scan), within a budget of
 * views, decoded bytes and nesting depth. Obfuscation on its own is a weak signal (≤ 0.3):
 * what a decoded view says is for the later layers to judge.
 */

const limits = config.limits;
const scores = config.scores;

interface Run {
  ctx: InspectionContext;
  seen: Set<string>;
  budget: { bytes: number };
  flagged: Set<string>;
  maxDepth: number;
  /** Maps a span in the current base text to the content; undefined = whole content. */
  toContent?: (span: Span) => Span;
}

function addView(run: Run, name: string, text: string, source?: Span): boolean {
  const { ctx } = run;
  if (ctx.views.length - 1 >= limits.maxViews) {
    flag(run, 'decode_budget_exceeded', scores.budget, `more than ${limits.maxViews} decoded views`);
    return false;
  }
  if (text.trim().length === 0 || run.seen.has(text)) return false;
  run.seen.add(text);
  ctx.views.push(source ? { name, text, source } : { name, text });
  return true;
}

function flag(run: Run, type: string, score: number, detail: string, span?: Span): void {
  if (run.flagged.has(type)) return;
  run.flagged.add(type);
  run.ctx.flags.push({ layer: 'obfuscation', type, score, category: 'obfuscation', detail, ...(span ? { span } : {}) });
}

/** Readings of one base text: inline escapes, spaced letters, leet, ciphers, then nested blocks. */
function derive(run: Run, text: string, depth: number, outer: Span | undefined): void {
  const whole = { start: 0, end: run.ctx.content.length };
  const place = (span: Span): Span => outer ?? (run.toContent ? run.toContent(span) : whole);
  let base = text;
  const unescaped = unescapeInline(base);
  if (unescaped.alnum >= config.escapes.minDecodedAlnum && addView(run, 'unescaped', unescaped.text, outer)) {
    if (unescaped.asciiAlnum >= config.escapes.minDecodedAlnum) flag(run, 'escaped_text', scores.escaped, 'letters hidden behind escapes');
    base = unescaped.text;
    run.toContent = undefined;
  }
  const joined = joinSpacedLetters(base);
  if (joined.joined > 0 && addView(run, 'joined', joined.text, outer)) {
    flag(run, 'spaced_letters', scores.spaced, `${joined.joined} spaced-out words`);
  }
  const leet = decodeLeet(base);
  if (leetIsMeaningful(leet) && addView(run, 'leet', leet.text, outer)) {
    flag(run, 'leetspeak', scores.leet, `${leet.replaced} leetspeak words`);
  }
  for (const reading of decodeCiphers(base, limits.maxCipherChars, limits.maxSegmentChars)) {
    const span = place(reading.span);
    if (addView(run, reading.kind, reading.text, span)) flag(run, 'cipher_text', scores.cipher, `${reading.kind} text`, span);
  }
  if (depth >= limits.maxDepth || run.budget.bytes <= 0) return;
  for (const seg of decodeBlocks(base, limits.maxCandidatesPerText, run.budget)) {
    const span = place(seg.span);
    if (!addView(run, seg.encoding, seg.text, span)) continue;
    run.maxDepth = Math.max(run.maxDepth, depth + 1);
    flag(run, 'encoded_payload', scores.encoded, `${seg.encoding} text decoded`, span);
    if (depth + 1 >= 2) flag(run, 'nested_encoding', scores.nested, 'encoding inside encoding', span);
    const saved = run.toContent;
    derive(run, seg.text, depth + 1, span);
    run.toContent = saved;
  }
  if (run.budget.bytes <= 0) flag(run, 'decode_budget_exceeded', scores.budget, `over ${limits.maxDecodedBytes} decoded bytes`);
}

export const obfuscationLayer: Layer = {
  name: 'obfuscation',
  run(ctx: InspectionContext) {
    const content = ctx.content;
    if (content.length === 0) return;
    const run: Run = {
      ctx,
      seen: new Set(ctx.views.map((v) => v.text)),
      budget: { bytes: limits.maxDecodedBytes },
      flagged: new Set(),
      maxDepth: 0,
    };
    const before = ctx.views.length;
    for (const hidden of decodeHidden(content, limits.maxViews)) {
      if (!isTextLike(hidden.text)) continue;
      if (addView(run, hidden.kind, hidden.text, hidden.span)) {
        flag(run, 'hidden_unicode_text', scores.hiddenUnicode, `text hidden in ${hidden.kind}`, hidden.span);
      }
    }
    const stripped = stripInvisible(content);
    const folded = fold(stripped.text);
    let base = content;
    const nfkcMatters = folded.nfkcGain >= config.normalize.minNfkcLetterGain;
    if (stripped.meaningful > 0 || nfkcMatters || folded.skeletonSwaps > 0) {
      const name = folded.skeletonSwaps > 0 ? 'skeleton' : nfkcMatters ? 'nfkc' : 'stripped';
      if (addView(run, name, folded.text)) base = folded.text;
      if (folded.skeletonSwaps > 0) flag(run, 'homoglyphs', scores.homoglyph, `${folded.skeletonSwaps} look-alike letters`);
      // Stripping only removes characters and the skeleton swaps one for one, so offsets map back.
      if (base === content) run.toContent = (s) => s;
      else if (folded.text.length === stripped.text.length) {
        run.toContent = (s) => ({ start: unstripOffset(stripped.removed, s.start), end: unstripOffset(stripped.removed, s.end - 1) + 1 });
      }
    } else run.toContent = (s) => s;
    derive(run, base, 0, undefined);
    ctx.signals['obfuscation.views'] = ctx.views.length - before;
    ctx.signals['obfuscation.depth'] = run.maxDepth;
  },
};
