import config from '../../../config/injection-patterns.json' with { type: 'json' };
import type { Kind, Span } from '../types.js';

/**
 * Curated structural injection patterns (config/injection-patterns.json). Each returns its first match so the
 * causal arbiter can judge whether that span is operative or only quoted.
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
  regex: new RegExp(p.pattern, 'i'),
}));

export interface PatternHit {
  id: string;
  score: number;
  span: Span;
}

export function matchPatterns(text: string, kind: Kind): PatternHit[] {
  const hits: PatternHit[] = [];
  for (const p of PATTERNS) {
    if (!p.kinds.has(kind)) continue;
    const m = p.regex.exec(text);
    if (m) hits.push({ id: p.id, score: p.score, span: { start: m.index, end: m.index + m[0].length } });
  }
  return hits;
}
