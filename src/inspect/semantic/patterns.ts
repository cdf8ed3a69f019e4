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
}

const PATTERNS: readonly InjectionPattern[] = config.patterns.map((p) => ({
  id: p.id,
  kinds: new Set(p.kinds),
  score: p.score,
  regex: 'scriptGuarded' in p && p.scriptGuarded ? cueRegex([p.pattern]) : new RegExp(p.pattern, 'i'),
}));

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
    p.regex.lastIndex = 0;
    const m = p.regex.exec(text);
    if (m) hits.push({ id: p.id, score: p.score, span: { start: m.index, end: m.index + m[0].length } });
  }
  if (STRUCTURE_KINDS.has(kind)) hits.push(...matchStructure(text));
  return hits;
}
