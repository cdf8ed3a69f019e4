import config from '../../../config/injection-patterns.json' with { type: 'json' };
import type { Kind, Span } from '../types.js';
import { cueRegex, matchStructure } from './structure.js';

/**
 * Curated structural injection patterns (config/injection-patterns.json). Each returns its first match so the
 * causal arbiter can judge whether that span is operative or only quoted. Patterns compile with `i` only (no `u`:
 * case-insensitive Unicode matching is several times slower in V8), so they avoid `\p{...}` classes; multi-script
 * word lists marked `scriptGuarded` compile through `cueRegex`. The language-independent jailbreak shapes
 * (many-shot, refusal suppression, output priming, unlocked persona, payload splitting) live in ./structure.ts and
 * run for the kinds in `structure.kinds`.
 */
interface InjectionPattern {
  id: string;
  kinds: ReadonlySet<string>;
  score: number;
  regex: RegExp;
  /** A match whose preceding words match this (e.g. a negation governing it) does not count; the next one may. */
  unlessBefore?: RegExp;
}

const PATTERNS: readonly InjectionPattern[] = config.patterns.map((p) => ({
  id: p.id,
  kinds: new Set(p.kinds),
  score: p.score,
  ...('unlessBefore' in p && typeof p.unlessBefore === 'string'
    ? { regex: new RegExp(p.pattern, 'gi'), unlessBefore: new RegExp(p.unlessBefore, 'i') }
    : { regex: 'scriptGuarded' in p && p.scriptGuarded ? cueRegex([p.pattern]) : new RegExp(p.pattern, 'i') }),
}));

/** Matches considered per pattern with an `unlessBefore` guard (bounded work on adversarial repetition). */
const MAX_GUARDED_MATCHES = 16;
/** Characters before a match the guard reads (it is anchored at the match). */
const GUARD_WINDOW = 64;

function firstCountingMatch(p: InjectionPattern, text: string): RegExpExecArray | null {
  p.regex.lastIndex = 0;
  if (!p.unlessBefore) return p.regex.exec(text);
  for (let i = 0; i < MAX_GUARDED_MATCHES; i++) {
    const m = p.regex.exec(text);
    if (!m) return null;
    if (m[0].length === 0) p.regex.lastIndex++;
    if (!p.unlessBefore.test(text.slice(Math.max(0, m.index - GUARD_WINDOW), m.index))) return m;
  }
  return null;
}

const STRUCTURE_KINDS: ReadonlySet<string> = new Set(config.structure.kinds);

export interface PatternHit {
  id: string;
  score: number;
  span: Span;
}

export function matchPatterns(text: string, kind: Kind): PatternHit[] {
  const hits: PatternHit[] = [];
  for (const p of PATTERNS) {
    if (!p.kinds.has(kind)) continue;
    const m = firstCountingMatch(p, text);
    if (m) hits.push({ id: p.id, score: p.score, span: { start: m.index, end: m.index + m[0].length } });
  }
  if (STRUCTURE_KINDS.has(kind)) hits.push(...matchStructure(text));
  return hits;
}
