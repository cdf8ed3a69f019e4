import config from '../../config/evolution.json' with { type: 'json' };
import { ruleHits, viewBudget, type MatchView } from '../inspect/rules/apply.js';
import { compileRegex, compileRules } from '../inspect/rules/compile.js';
import { exemplarShingles } from '../inspect/rules/exemplar.js';
import { normalizePhrase, words } from '../inspect/rules/normalize.js';
import type { DynamicRule } from '../inspect/types.js';
import type { BenignCorpus } from './benign-corpus.js';
import { literalLength, regexShape } from './regex-shape.js';
import { vocabularyRefusal } from '../inspect/rules/vocabulary.js';
import { regexReadings } from '../inspect/rules/regex-reading.js';
import { gramHashes } from './allowed-shapes.js';

/**
 * The validation gate (issue 4): a candidate goes live only if it holds only common attack vocabulary (issue 10),
 * compiles under RE2, is bounded in length, is not
 * overly generic, has no hostile shape, matches the triggering attack (content or a decoded view), duplicates no
 * rule in force, matches nothing in the benign regression corpus and nothing the tenant's own recently allowed
 * traffic holds (its shapes: src/evolution/allowed-shapes.ts). Pure; refusals say why.
 */

export interface Candidate {
  kind: DynamicRule['kind'];
  pattern: string;
  family?: string;
}

export type GateResult = { ok: true; pattern: string } | { ok: false; reason: string };

export interface GateInput {
  candidate: Candidate;
  /**
   * Views of the triggering attack (redacted), as the pipeline reads it. Absent for a rule imported over a syndicate
   * tunnel (issue 14): the sender never sends attack text, so the attack-match and coverage checks cannot run; every
   * other check does.
   */
  attack?: readonly MatchView[];
  attackLength: number;
  corpus: BenignCorpus;
  /** Active and pending rules. */
  existing: readonly DynamicRule[];
  maxPatternChars: number;
  /** The triggering tenant's recently allowed traffic, as hashed word 3-grams (absent: not checked). */
  allowed?: { seed: number; hashes: ReadonlySet<number> };
}

const KINDS = new Set(['regex', 'phrase', 'exemplar']);
const STOPWORDS = new Set(config.stopwords);
const PROBES = config.gate.probes.map((text) => ({ name: 'original', text }));
const refuse = (reason: string): GateResult => ({ ok: false, reason });

export function validateCandidate(input: GateInput): GateResult {
  const { candidate } = input;
  if (!KINDS.has(candidate.kind) || typeof candidate.pattern !== 'string') return refuse('invalid_rule');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(candidate.pattern)) return refuse('invalid_pattern: control characters');
  const limit = candidate.kind === 'exemplar' ? config.exemplar.maxChars : input.maxPatternChars;
  if (candidate.pattern.length > limit) return refuse(`pattern_too_long: over ${limit} characters`);
  // A placeholder in a rule would match the redacted copy the gate sees, never the live content.
  if (/redacted|neutralized/i.test(candidate.pattern)) return refuse('mentions_placeholder');
  // Issue 10: only common attack vocabulary, never an identifier, number, address or anything the PII scanner flags.
  const leak = vocabularyRefusal(candidate.kind, candidate.pattern);
  if (leak) return refuse(leak);
  const fragment = fragmentRefusal(candidate);
  if (fragment) return refuse(fragment);

  const shaped = shapeCheck(candidate);
  if (!shaped.ok) return shaped;
  const rule: DynamicRule = { id: 'candidate', kind: candidate.kind, pattern: shaped.pattern };
  const { compiled, skipped } = compileRules([rule]);
  if (skipped.length > 0) return refuse('too_generic: no usable content');
  if (ruleHits(compiled, PROBES, Infinity, true).size > 0) return refuse('too_generic: matches neutral probe text');
  if (input.attack) {
    if (ruleHits(compiled, input.attack, viewBudget(input.attackLength), true).size === 0) return refuse('no_match_on_attack');
    const covering = compileRules(input.existing).compiled;
    const covered = [...ruleHits(covering, input.attack, viewBudget(input.attackLength), true).keys()][0];
    if (covered) return refuse(`already_covered: ${covered}`);
  } else {
    const same = input.existing.find((r) => r.kind === rule.kind && r.pattern === rule.pattern);
    if (same) return refuse(`already_covered: ${same.id}`);
  }
  const twin = input.existing.find((r) => r.kind === rule.kind && similarity(r.pattern, rule.pattern) >= config.gate.nearDuplicateJaccard);
  if (twin) return refuse(`near_duplicate: ${twin.id}`);

  const kinds = new Map<string, number>();
  input.corpus.samples.forEach((views, i) => {
    if (ruleHits(compiled, views, Infinity, true).size > 0) {
      const kind = input.corpus.items[i].kind;
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    }
  });
  if (kinds.size > 0) {
    const n = [...kinds.values()].reduce((a, b) => a + b, 0);
    const detail = [...kinds].map(([k, c]) => `${k} ${c}`).join(', ');
    return refuse(`matches_benign: ${n} of ${input.corpus.items.length} (${detail})`);
  }
  if (input.allowed && input.allowed.hashes.size > 0 && inAllowedTraffic(rule, input.allowed)) {
    return refuse("matches_allowed_traffic: the tenant's own recently allowed traffic holds it");
  }
  return { ok: true, pattern: shaped.pattern };
}

/**
 * A single letter other than `a` and `I` in a phrase is a piece cut from a word or a flag (`command curl s` from
 * `curl -s`): such a rule is not a signature of a behaviour, and matches ordinary text around the same words.
 */
function fragmentRefusal(candidate: Candidate): string | undefined {
  if (candidate.kind !== 'phrase') return undefined;
  const letter = words(candidate.pattern).find((w) => w.length === 1 && /\p{L}/u.test(w) && w !== 'a' && w !== 'i');
  return letter ? 'fragment: a single letter cut from a word or a command flag' : undefined;
}

/**
 * Whether the tenant's allowed traffic holds the rule: every word 3-gram of the phrase (of one of the texts a regex
 * can spell), or most of an exemplar's (the share at which an exemplar rule matches).
 */
function inAllowedTraffic(rule: DynamicRule, allowed: { seed: number; hashes: ReadonlySet<number> }): boolean {
  const held = (text: string, share: number) => {
    const grams = gramHashes(words(text, 256), allowed.seed);
    const found = grams.filter((h) => allowed.hashes.has(h)).length;
    return grams.length > 0 && found >= Math.ceil(grams.length * share);
  };
  if (rule.kind === 'phrase') return held(rule.pattern, 1);
  if (rule.kind === 'exemplar') return held(rule.pattern, config.exemplar.threshold);
  return (regexReadings(rule.pattern) ?? []).some((reading) => held(reading, 1));
}

/** Kind-specific syntax and genericity; returns the pattern as it will be stored. */
function shapeCheck(candidate: Candidate): GateResult {
  const { gate } = config;
  if (candidate.kind === 'regex') {
    const shape = regexShape(candidate.pattern);
    if (shape.nestedQuantifier) return refuse('pathological_pattern: nested unbounded quantifiers');
    if (shape.maxRepeat > gate.maxRepeatCount) return refuse(`pathological_pattern: repetition over ${gate.maxRepeatCount}`);
    try {
      compileRegex(candidate.pattern);
    } catch (err) {
      return refuse(`invalid_regex: ${String((err as Error).message).slice(0, 120)}`);
    }
    const literal = words(shape.required).filter((w) => w.length >= 2);
    if (literalLength(shape.required) < gate.minLiteralChars || literal.length < 2) return refuse('too_generic: too little required literal text');
    return { ok: true, pattern: candidate.pattern };
  }
  if (candidate.kind === 'phrase') {
    const phrase = normalizePhrase(candidate.pattern);
    const ws = phrase.split(' ').filter(Boolean);
    const content = ws.filter((w) => w.length >= 3 && !STOPWORDS.has(w) && /\p{L}/u.test(w));
    if (ws.length < gate.phraseMinWords || ws.length > gate.phraseMaxWords) return refuse(`too_generic: a phrase needs ${gate.phraseMinWords} to ${gate.phraseMaxWords} words`);
    if (content.length < gate.phraseMinContentWords) return refuse('too_generic: too few content words');
    return { ok: true, pattern: phrase };
  }
  const text = candidate.pattern.trim();
  if (!exemplarShingles(text)) return refuse('too_generic: exemplar too short');
  return { ok: true, pattern: text };
}

/** Jaccard similarity of character trigrams, on lower-cased patterns. */
export function similarity(a: string, b: string): number {
  const grams = (s: string) => {
    const t = s.toLowerCase();
    const set = new Set<string>();
    for (let i = 0; i + 3 <= t.length; i++) set.add(t.slice(i, i + 3));
    return set;
  };
  const x = grams(a);
  const y = grams(b);
  if (x.size === 0 || y.size === 0) return a.toLowerCase() === b.toLowerCase() ? 1 : 0;
  let shared = 0;
  for (const g of x) if (y.has(g)) shared++;
  return shared / (x.size + y.size - shared);
}
