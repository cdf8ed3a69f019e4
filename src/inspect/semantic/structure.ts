import config from '../../../config/injection-patterns.json' with { type: 'json' };
import type { Span } from '../types.js';

/**
 * Language-independent structure of jailbreaks (config/injection-patterns.json `structure`), as opposed to their
 * wording: a many-shot run of fake dialogue turns, instructions that forbid refusing (refusal suppression),
 * instructions to open the reply with an affirmative phrase (output priming), a mode or persona switch that
 * removes restrictions (DAN, "developer mode"), and a request cut into named fragments to be joined (payload
 * splitting). Labels and cue words are listed for many languages, but what is
 * detected is the shape: how many fake turns, how many answers comply, which kinds of refusal behaviour are banned
 * together. Every scan is linear: one pass over at most `maxLines` lines, one cue pass examining at most
 * `maxMentions` matches, and regexes with bounded windows only. Cue regexes compile without the `u` flag (see the
 * config's `_about`).
 */

export interface StructureHit {
  id: string;
  score: number;
  span: Span;
}

const S = config.structure;
/** Sentence ends in Latin, CJK, Arabic and Devanagari scripts: a cue window never crosses them. */
const SAME_SENTENCE = '[^.!?\\n。！？؟।]';

/** Scripts that separate words with spaces: a cue starting inside such a word ("unsure", "prefix") is no cue. */
const SPACED_LETTER = /[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}]/u;
const WORD_CHAR = /[\p{L}\p{N}]/u;

function startsWord(text: string, index: number): boolean {
  return index === 0 || !SPACED_LETTER.test(text[index]) || !WORD_CHAR.test(text[index - 1]);
}

// ---------------------------------------------------------------------------------------------------------------
// Cue regexes. A single alternation of a few hundred words in several scripts makes V8's regex engine try every
// branch at every position; splitting the branches by script lets a cheap guard skip most positions: Latin-script
// words are tried only at ASCII word starts (`\b`), words in other scripts only at non-ASCII characters. Same
// matches; on 10 KB of ordinary prose about 2.7× faster than the plain alternation.

/** Splits a regex source at its top-level `|`. */
function topAlternatives(source: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inClass = false;
  let current = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      current += c + (source[i + 1] ?? '');
      i++;
      continue;
    }
    if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    if (c === '|' && depth === 0 && !inClass) {
      out.push(current);
      current = '';
    } else current += c;
  }
  out.push(current);
  return out;
}

/** Index of the parenthesis closing the one at `open`. */
function closingParen(source: string, open: number): number {
  let depth = 0;
  let inClass = false;
  for (let i = open; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}

/** Branches of `source`, descending into plain groups that make up a whole branch: `(a|b)|c` → a, b, c. */
function branches(source: string): string[] {
  return topAlternatives(source).flatMap((alt) => {
    const wrapped = alt.startsWith('(') && !alt.startsWith('(?') && closingParen(alt, 0) === alt.length - 1;
    return wrapped ? branches(alt.slice(1, -1)) : [alt];
  });
}

type Script = 'ascii' | 'other' | 'mixed';

function scriptOf(branch: string): Script {
  if (/^[a-z]/i.test(branch)) return 'ascii';
  if (/^[^\\([.^$|?*+{]/.test(branch)) return 'other';
  if (branch.startsWith('(') && !branch.startsWith('(?')) {
    const inner = branches(branch.slice(1, closingParen(branch, 0)));
    const kinds = new Set(inner.map(scriptOf));
    return kinds.size === 1 ? [...kinds][0] : 'mixed';
  }
  return 'mixed';
}

/** One global, case-insensitive regex matching any branch of any of `sources`, guarded by script. */
export function cueRegex(sources: readonly string[]): RegExp {
  const groups: Record<Script, string[]> = { ascii: [], other: [], mixed: [] };
  for (const source of sources) for (const branch of branches(source)) groups[scriptOf(branch)].push(branch);
  const parts = [
    groups.ascii.length > 0 ? `\\b(?:${groups.ascii.join('|')})` : '',
    groups.other.length > 0 ? `(?=[^\\x00-\\x7f])(?:${groups.other.join('|')})` : '',
    groups.mixed.length > 0 ? `(?:${groups.mixed.join('|')})` : '',
  ].filter((p) => p.length > 0);
  return new RegExp(parts.join('|'), 'gi');
}

// ---------------------------------------------------------------------------------------------------------------
// Many-shot: a run of fake dialogue turns (Anil et al. 2024, "Many-shot jailbreaking").

type Role = 'user' | 'assistant';

const ROLE_OF_LABEL = new Map<string, Role>([
  ...S.manyShot.userLabels.map((l): [string, Role] => [l.toLowerCase(), 'user']),
  ...S.manyShot.assistantLabels.map((l): [string, Role] => [l.toLowerCase(), 'assistant']),
]);
const COMPLIANT_OPENING = new RegExp(`^${SAME_SENTENCE}{0,3}(?:${S.manyShot.compliantOpening})`, 'i');
/** Markup around a label: `**User**:`, `[Human]:`, `### Assistant:`, `<|user|>`. */
const LABEL_MARKUP = /^[\s*#>[\]<|_-]+|[\s*#>[\]<|_-]+$/g;
const TEMPLATE_TURN = /^<\|(user|assistant|human|model)\|>/i;

interface Turn {
  role: Role;
  lineStart: number;
  body: string;
}

/** The turn a line opens (`Label: text` with an ASCII or full-width colon), or undefined. */
function turnOf(line: string, lineStart: number): Turn | undefined {
  const template = TEMPLATE_TURN.exec(line);
  if (template) {
    const role: Role = /user|human/i.test(template[1]) ? 'user' : 'assistant';
    return { role, lineStart, body: line.slice(template[0].length).trim() };
  }
  const limit = Math.min(line.length, S.manyShot.maxLabelChars);
  let colon = -1;
  for (let i = 0; i < limit; i++) {
    const c = line.charCodeAt(i);
    if (c === 0x3a || c === 0xff1a) {
      colon = i;
      break;
    }
  }
  if (colon <= 0) return undefined;
  const label = line.slice(0, colon).replace(LABEL_MARKUP, '').toLowerCase();
  const role = ROLE_OF_LABEL.get(label);
  return role ? { role, lineStart, body: line.slice(colon + 1).trim() } : undefined;
}

/**
 * Whether the line [start, stop) can open a turn (turnOf): a chat-template tag, or a colon after its first character
 * within the label's length. Most lines of prose cannot, and are then not copied out of the text.
 */
function mayOpenTurn(text: string, start: number, stop: number): boolean {
  if (text.startsWith('<|', start)) return true;
  const limit = Math.min(stop, start + S.manyShot.maxLabelChars);
  for (let i = start + 1; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x3a || c === 0xff1a) return true;
  }
  return false;
}

function dialogueTurns(text: string): Turn[] {
  const turns: Turn[] = [];
  let start = 0;
  for (let n = 0; n < S.manyShot.maxLines && start <= text.length; n++) {
    const end = text.indexOf('\n', start);
    const stop = end < 0 ? text.length : end;
    const turn = mayOpenTurn(text, start, stop) ? turnOf(text.slice(start, Math.min(stop, start + S.manyShot.maxLabelChars + 200)), start) : undefined;
    if (turn) turns.push(turn);
    if (end < 0) break;
    start = end + 1;
  }
  return turns;
}

/**
 * Counts the assistant answers in alternating user→assistant exchanges and how many of them open with compliance;
 * fires only when the dialogue ends on a user turn (or an empty assistant turn): the real request comes last.
 */
export function manyShot(text: string): StructureHit | undefined {
  const turns = dialogueTurns(text);
  if (turns.length < 2 * S.manyShot.minAnswers) return undefined;
  let answers = 0;
  let compliant = 0;
  for (let i = 1; i < turns.length; i++) {
    if (turns[i].role !== 'assistant' || turns[i - 1].role !== 'user' || turns[i].body.length === 0) continue;
    answers++;
    if (COMPLIANT_OPENING.test(turns[i].body)) compliant++;
  }
  const last = turns[turns.length - 1];
  const endsOnRequest = last.role === 'user' || last.body.length === 0;
  if (!endsOnRequest) return undefined;
  const span = { start: last.lineStart, end: text.indexOf('\n', last.lineStart) < 0 ? text.length : text.indexOf('\n', last.lineStart) };
  if (answers >= S.manyShot.minAnswers && compliant / answers >= S.manyShot.compliantShare) return { id: 'many_shot_compliance', score: S.manyShot.score, span };
  if (answers >= S.manyShot.weakMinAnswers) return { id: 'many_shot_dialogue', score: S.manyShot.weakScore, span };
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Refusal suppression (Wei et al. 2023, "Jailbroken: How Does LLM Safety Training Fail?"): banning refusals,
// apologies, warnings and the model's own identity together. Apps ban one of them ("never apologise"); attacks
// ban refusing itself and pile up the rest.

const R = S.refusalSuppression;
/** Room for the negation word itself next to the window (the longest cue is under 24 characters). */
const CUE_ROOM = 24;
const NEGATION_BEFORE = new RegExp(`(?:${R.negation})${SAME_SENTENCE}{0,${R.window}}$`, 'iu');
const NEGATION_AFTER = new RegExp(`^${SAME_SENTENCE}{0,${R.windowAfter}}(?:${R.negation})`, 'iu');
const P = S.unlockedPersona;
const CUE_KINDS: Record<string, string> = { ...R.categories, mode: P.mode, unrestricted: P.unrestricted };
/**
 * One pass finds every cue the two detectors below need: a mention of each banned behaviour, a mode or persona
 * switch, removed restrictions; the short matched text is then classified. One scan costs less than six.
 */
const CUES = cueRegex(Object.values(CUE_KINDS));
const KIND_OF_CUE = Object.entries(CUE_KINDS).map(([kind, source]) => ({ kind, whole: new RegExp(`^(?:${source})$`, 'i') }));

interface Cues {
  /** First negated mention of each behaviour ("never refuse", "du darfst nicht ablehnen", "断らないで"). */
  bans: Map<string, Span>;
  mode: boolean;
  unrestricted?: Span;
}

/** Is the mention negated: a negation up to `window` characters before it or `windowAfter` after it? */
function negated(text: string, start: number, end: number): boolean {
  if (NEGATION_BEFORE.test(text.slice(Math.max(0, start - R.window - CUE_ROOM), start))) return true;
  return NEGATION_AFTER.test(text.slice(end, end + R.windowAfter + CUE_ROOM));
}

/** At most `maxMentions` cue matches are examined, so cue-dense text stays linear. */
function scanCues(text: string): Cues {
  const cues: Cues = { bans: new Map(), mode: false };
  CUES.lastIndex = 0;
  for (let n = 0; n < R.maxMentions; n++) {
    const m = CUES.exec(text);
    if (!m) break;
    if (m[0].length === 0) CUES.lastIndex++;
    if (!startsWord(text, m.index)) continue;
    const span = { start: m.index, end: m.index + m[0].length };
    const kind = KIND_OF_CUE.find((k) => k.whole.test(m[0]))?.kind;
    if (kind === 'mode') cues.mode = true;
    else if (kind === 'unrestricted') cues.unrestricted ??= span;
    else if (kind && !cues.bans.has(kind) && negated(text, span.start, span.end)) cues.bans.set(kind, span);
  }
  return cues;
}

export function refusalSuppression(text: string, cues: Cues = scanCues(text)): StructureHit | undefined {
  const found = cues.bans;
  if (found.size === 0) return undefined;
  const refusal = found.get('refusal');
  const span = refusal ?? [...found.values()].sort((x, y) => x.start - y.start)[0];
  if ((refusal && found.size >= 2) || found.size >= R.highCategories) return { id: 'refusal_suppression', score: R.score, span };
  if (refusal || found.size >= 2) return { id: 'refusal_suppression_weak', score: R.weakScore, span };
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Output priming / prefix injection (Wei et al. 2023): "start your reply with 'Sure, here is…'". Apps fix an
// opening too ("Start with a one-line summary", "begin with 'Short answer:'"); the attack is an opening that
// commits the model to comply, so the quoted phrase must be an affirmative.

const O = S.outputPriming;
/** Each affirmative is a candidate; only those right after an opening quote are checked for a start verb. */
const AFFIRMATIVE = cueRegex([O.affirmative]);
const OPENED_BY_QUOTE = new RegExp(`${O.quote}[\\s¡]{0,2}$`);
// The quoted opening itself ends in '!' or '：', so the window to the verb may cross punctuation, not a line.
const START_BEFORE = new RegExp(`(?:${O.start})[^\\n]{0,${O.window}}$`, 'i');
const START_AFTER = new RegExp(`^[^\\n]{0,${O.window}}(?:${O.start})`, 'i');
/**
 * An affirmative right after an opening quote, anywhere: every candidate the loop below accepts is one, so a text
 * without any is answered without running the affirmative alternation at every word (most text: quotes are rare
 * and the quote class leads, so the scan tests one character per position).
 */
const QUOTED_AFFIRMATIVE = new RegExp(`${O.quote}[\\s¡]{0,2}(?:${AFFIRMATIVE.source})`, 'i');

export function outputPriming(text: string): StructureHit | undefined {
  if (!QUOTED_AFFIRMATIVE.test(text)) return undefined;
  AFFIRMATIVE.lastIndex = 0;
  for (let n = 0; n < R.maxMentions; n++) {
    const m = AFFIRMATIVE.exec(text);
    if (!m) return undefined;
    if (m[0].length === 0) AFFIRMATIVE.lastIndex++;
    if (!OPENED_BY_QUOTE.test(text.slice(Math.max(0, m.index - 4), m.index))) continue;
    const end = m.index + m[0].length;
    const before = text.slice(Math.max(0, m.index - O.window - CUE_ROOM), m.index);
    if (START_BEFORE.test(before) || START_AFTER.test(text.slice(end, end + O.window + CUE_ROOM))) {
      return { id: 'output_priming', score: O.score, span: { start: m.index, end } };
    }
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Unlocked persona (DAN, "developer mode"): a mode or persona switch plus removed restrictions, or removed
// restrictions plus a ban on refusing.

export function unlockedPersona(text: string, cues: Cues = scanCues(text)): StructureHit | undefined {
  if (!cues.unrestricted || (!cues.mode && !cues.bans.has('refusal'))) return undefined;
  return { id: 'unlocked_persona', score: P.score, span: cues.unrestricted };
}

// ---------------------------------------------------------------------------------------------------------------
// Payload splitting (Kang et al. 2023): named quoted fragments, joined, and the joined result acted on.

const PS = S.payloadSplitting;
/** Letters and digits of the scripts the name of a fragment is written in (BMP ranges: no `u` flag needed). */
const NAME_CHAR = 'A-Za-z0-9_\\u00C0-\\u024F\\u0400-\\u04FF\\u0600-\\u06FF\\u0900-\\u097F\\u3040-\\u30FF\\u4E00-\\u9FFF\\uAC00-\\uD7AF';
const NAME = `[${NAME_CHAR}]{1,12}(?: [0-9A-Za-z])?`;
/** `name = "…"`, `Part 1: «…»`, `片段1=“…”`: the name, then the quoted fragment (one line, at most 200 characters). */
const FRAGMENT = new RegExp(`(?:^|[\\s,;(（、，。：；])(${NAME})\\s{0,2}[=:＝：]\\s{0,2}["'“”«»„「『‘]([^"'“”«»„」』’\\n]{1,200})`, 'g');
const JOINED_NAMES = new RegExp(`([${NAME_CHAR}]{1,12})\\s{0,2}[+＋]\\s{0,2}([${NAME_CHAR}]{1,12})`, 'g');
const COMBINE = new RegExp(PS.combine, 'i');
const ACT = cueRegex([PS.act]);

/** A placeholder name (a, X1, P2, 片段1, Part 1, Teil B), not a field label such as "Question:" or "Context:". */
function placeholder(name: string): boolean {
  return [...name].length <= 3 || /^\S{1,10} ?[0-9]$/.test(name) || /^\S{1,10} [A-Za-z]$/.test(name);
}

/** Natural language, not a code token: it has a space or is written in a script without spaces. */
function wordy(fragment: string): boolean {
  return /\s\S/.test(fragment.trim()) || /[^\x00-\u024F]/.test(fragment);
}

/** What every FRAGMENT match contains (a name's `=`/`:` then an opening quote): texts without it have no fragment. */
const FRAGMENT_HINT = /[=:＝：]\s{0,2}["'“”«»„「『‘]/;

export function payloadSplitting(text: string): StructureHit | undefined {
  if (!FRAGMENT_HINT.test(text)) return undefined;
  const names = new Set<string>();
  let first: Span | undefined;
  FRAGMENT.lastIndex = 0;
  for (let n = 0; n < PS.maxFragments; n++) {
    const m = FRAGMENT.exec(text);
    if (!m) break;
    if (!wordy(m[2]) || !placeholder(m[1])) continue;
    names.add(m[1].toLowerCase());
    first ??= { start: m.index, end: m.index + m[0].length };
  }
  if (names.size < PS.minFragments || !first) return undefined;
  let joined = COMBINE.test(text);
  JOINED_NAMES.lastIndex = 0;
  for (let n = 0; n < PS.maxFragments && !joined; n++) {
    const m = JOINED_NAMES.exec(text);
    if (!m) break;
    joined = names.has(m[1].toLowerCase()) && names.has(m[2].toLowerCase());
  }
  if (!joined) return undefined;
  ACT.lastIndex = 0;
  const acted = ACT.test(text);
  return { id: acted ? 'payload_splitting' : 'payload_splitting_weak', score: acted ? PS.score : PS.weakScore, span: first };
}

/** Every structural hit in `text`, at most one per detector. */
export function matchStructure(text: string): StructureHit[] {
  const cues = scanCues(text);
  const hits = [manyShot(text), refusalSuppression(text, cues), outputPriming(text), unlockedPersona(text, cues), payloadSplitting(text)];
  return hits.filter((hit): hit is StructureHit => hit !== undefined);
}
