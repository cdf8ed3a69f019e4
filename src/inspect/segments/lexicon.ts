import config from '../../../config/segments.json' with { type: 'json' };
import { sharedTable } from '../shared-tables.js';
import { AhoCorasick } from '../semantic/aho-corasick.js';

/**
 * The segment judge's word lists (config/segments.json) compiled into one Aho–Corasick automaton. Text is normalised
 * to lower case with every character that is not a letter, digit or combining mark turned into a space, and padded
 * with a space, so an entry " send" matches at a word start ("sends", "sending") and " ai " only as a whole word.
 * Entries in scripts written without spaces (Han, kana, Thai) match anywhere.
 */

export const CONCEPTS = ['aiName', 'aiNameWeak', 'second', 'functionalStrong', 'functionalWeak', 'override', 'object', 'promptObject', 'send', 'tool', 'reveal', 'payment', 'recipient', 'destroy', 'task'] as const;
export type Concept = (typeof CONCEPTS)[number];

const NO_SPACES = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;
/** Whole-word entries: short ones, where a prefix match would hit other words ("ai" in "aim", "ki" in "kind"). */
const WHOLE_WORD_MAX = 3;

function compileEntry(entry: string): string {
  const whole = entry.endsWith('$');
  const e = normalise(whole ? entry.slice(0, -1) : entry).trim();
  if (NO_SPACES.test(e)) return e;
  return whole || e.length <= WHOLE_WORD_MAX ? ` ${e} ` : ` ${e}`;
}

const lists: Array<[Concept, readonly string[]]> = [
  ['aiName', config.aiNames],
  ['aiNameWeak', config.aiNamesWeak],
  ['second', config.secondPerson],
  ['functionalStrong', config.functionalStrong],
  ['functionalWeak', config.functionalWeak],
  ['override', config.override],
  ['object', config.sensitiveObjects],
  ['promptObject', config.promptObjects],
  ['send', config.actions.send],
  ['tool', config.actions.tool],
  ['reveal', config.actions.reveal],
  ['payment', config.actions.payment],
  ['recipient', config.actions.recipient],
  ['destroy', config.actions.destroy],
  ['task', config.actions.task],
];

const patterns: string[] = [];
const conceptOf: number[] = [];
for (const [concept, entries] of lists) {
  for (const entry of entries) {
    patterns.push(compileEntry(entry));
    conceptOf.push(CONCEPTS.indexOf(concept));
  }
}
// ~16 MB of transitions: built once per process and shared by the inspection threads (shared-tables.ts).
const automaton = sharedTable('segments', AhoCorasick, () => new AhoCorasick(patterns));
const seen = new Uint8Array(patterns.length);

/** Lower case; anything but letters, digits and marks becomes a space ("l'utilisateur" → "l utilisateur"). */
export function normalise(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}\p{M}]+/gu, ' ');
}

/** Which concepts occur in `text`: a bit set over CONCEPTS. */
export function conceptsOf(text: string): number {
  seen.fill(0);
  automaton.scan(` ${normalise(text)} `, seen);
  let bits = 0;
  for (let i = 0; i < seen.length; i++) if (seen[i]) bits |= 1 << conceptOf[i];
  return bits;
}

const AI_NAME_WORDS = new Set(['ai', ...config.aiNames, ...config.aiNamesWeak].map((e) => normalise(e).trim()));

/** Whether a name is, as a whole, one of the AI names ("assistant", "claude", "ai"): "deploy-bot" is not. */
export function isAiName(name: string): boolean {
  return AI_NAME_WORDS.has(normalise(name).trim());
}

export function has(bits: number, concept: Concept): boolean {
  return (bits & (1 << CONCEPTS.indexOf(concept))) !== 0;
}
