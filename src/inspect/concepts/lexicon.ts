import asks from '../../../config/concepts/asks.json' with { type: 'json' };
import framing from '../../../config/concepts/framing.json' with { type: 'json' };
import harm from '../../../config/concepts/harm.json' with { type: 'json' };
import injection from '../../../config/concepts/injection.json' with { type: 'json' };
import jailbreak from '../../../config/jailbreak-concepts.json' with { type: 'json' };
import { sharedTable } from '../shared-tables.js';
import { SparseAutomaton } from './automaton.js';
import { compilePhrase, phrasesOf } from './phrases.js';

/**
 * Every concept lexicon (config/concepts/: harm families, request forms, framings, injection concepts), in every
 * language, compiled at load into ONE Aho–Corasick automaton: reading a text for all concepts is one linear pass,
 * whatever the number of phrases and languages. Concept names: `harm:<family>`, `sexual`, `minor`, `operational`,
 * `asks`, `evasion`, `targets`, `about`, `protective`, `legit`, `frame:<framing>`, `inj:<concept>`, and the English
 * jailbreak techniques of config/jailbreak-concepts.json as `jb:<concept>` (matched anywhere, as that file says).
 */

type ByLanguage = Record<string, string>;

function groups(): Array<[string, ByLanguage]> {
  const out: Array<[string, ByLanguage]> = [];
  for (const [family, langs] of Object.entries(harm.families)) out.push([`harm:${family}`, langs]);
  out.push(['sexual', harm.sexual], ['minor', harm.minor]);
  for (const name of ['operational', 'asks', 'evasion', 'targets', 'about', 'protective', 'legit'] as const) out.push([name, asks[name]]);
  for (const [frame, langs] of Object.entries(framing.frames)) out.push([`frame:${frame}`, langs]);
  for (const [concept, langs] of Object.entries(injection.concepts)) out.push([`inj:${concept}`, langs]);
  for (const [concept, list] of Object.entries(jailbreak.concepts)) out.push([`jb:${concept}`, { en: list.map((p) => `*${p}*`).join('|') }]);
  return out;
}

/** Literal id → (concept, phrase, part index); a phrase with several parts is chained after the automaton. */
interface LiteralRef {
  concept: number;
  phrase: number;
  part: number;
  length: number;
}

export const CONCEPTS: readonly string[] = groups().map(([name]) => name);
const literals: string[] = [];
const refs: LiteralRef[] = [];
const partCounts: number[] = [];
const phraseConcept: number[] = [];

groups().forEach(([, langs], concept) => {
  for (const entry of Object.values(langs)) {
    for (const phrase of phrasesOf(entry)) {
      const compiled = compilePhrase(phrase);
      if (!compiled) continue;
      const phraseId = partCounts.length;
      partCounts.push(compiled.parts.length);
      phraseConcept.push(concept);
      compiled.parts.forEach((literal, part) => {
        literals.push(literal);
        refs.push({ concept, phrase: phraseId, part, length: literal.length });
      });
    }
  }
});

// Single-part phrases only mark their concept (no callback); the parts of chained phrases are reported with positions.
const literalLabels = Int32Array.from(refs, (ref) => (partCounts[ref.phrase] === 1 ? ref.concept : -1));
// ~10 MB of typed arrays: built once per process and shared by the inspection threads (shared-tables.ts).
const matcher = sharedTable('concepts', SparseAutomaton, () => new SparseAutomaton(literals, literalLabels));
/** The automaton's input, for tests that check it against a plain search: literal id → normal form and label. */
export const LEXICON_LITERALS: readonly string[] = literals;
export const LEXICON_LABELS: Readonly<Int32Array> = literalLabels;
/** Most characters allowed between the end of one part of a phrase and the start of the next (a word's ending). */
const MAX_PART_GAP = 24;

export const PHRASE_COUNT = partCounts.length;

const conceptIndex = new Map(CONCEPTS.map((name, i) => [name, i]));

/** Index of a concept in CONCEPTS (throws on a name the lexicons do not define: a typo is a bug, not a silent miss). */
export function conceptId(name: string): number {
  const id = conceptIndex.get(name);
  if (id === undefined) throw new Error(`unknown concept ${name}`);
  return id;
}

/** Which concepts a text names. */
export class ConceptReading {
  /** present[i] = 1 when CONCEPTS[i] occurs. */
  constructor(readonly present: Uint8Array = new Uint8Array(CONCEPTS.length)) {}

  has(name: string): boolean {
    return this.present[conceptIndex.get(name) ?? -1] === 1;
  }

  /** `has` by index (conceptId): the hot path of the judge. */
  at(id: number): boolean {
    return this.present[id] === 1;
  }

  names(): string[] {
    return CONCEPTS.filter((_, i) => this.present[i] === 1);
  }

  /** Adds the concepts of another reading (e.g. a decoded view's) to this one. */
  merge(other: ConceptReading): this {
    for (let i = 0; i < this.present.length; i++) this.present[i] |= other.present[i];
    return this;
  }
}

/**
 * The last texts read and their concepts: the semantic layer reads a prompt's chunk and each decoded view for its
 * model features, then the prompt and its views again for the harmful-intent judge — the same lower-cased strings.
 */
const MEMO_SIZE = 4;
const memoText: Array<string | undefined> = new Array(MEMO_SIZE).fill(undefined);
const memoPresent: Uint8Array[] = Array.from({ length: MEMO_SIZE }, () => new Uint8Array(CONCEPTS.length));
let memoNext = 0;

/** Reads `text` (any case, any punctuation) for every concept. The reading returned is the caller's to merge into. */
export function readConcepts(text: string): ConceptReading {
  for (let i = 0; i < MEMO_SIZE; i++) if (memoText[i] === text) return new ConceptReading(memoPresent[i].slice());
  const present = new Uint8Array(CONCEPTS.length);
  // Multi-part phrases: end of the last matched part, per phrase (-1: none yet).
  let chains: Map<number, number[]> | undefined;
  matcher.scan(text, (id, end) => {
    const ref = refs[id];
    chains ??= new Map();
    const ends = chains.get(ref.phrase) ?? new Array<number>(partCounts[ref.phrase]).fill(-1);
    chains.set(ref.phrase, ends);
    const start = end - ref.length;
    if (ref.part === 0) ends[0] = end;
    else if (ends[ref.part - 1] >= 0 && start >= ends[ref.part - 1] - 1 && start - ends[ref.part - 1] <= MAX_PART_GAP) ends[ref.part] = end;
    if (ends[ends.length - 1] >= 0) present[ref.concept] = 1;
  }, present);
  memoText[memoNext] = text;
  memoPresent[memoNext].set(present);
  memoNext = (memoNext + 1) % MEMO_SIZE;
  return new ConceptReading(present);
}
