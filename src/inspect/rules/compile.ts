import RE2 from 're2';
import taxonomy from '../../../config/taxonomy.json' with { type: 'json' };
import type { DynamicRule } from '../types.js';
import { ExemplarMemory } from './exemplar.js';
import { PhraseSet } from './phrases.js';

/**
 * Turns the active rule set into matchers, once per rule-set version per thread. Regex rules run on RE2 only
 * (linear time: no pattern, however hostile, can backtrack catastrophically); the native addon is context-aware and
 * loads in every worker thread. All regexes are tested in one pass with an RE2.Set; a rule that fails to compile
 * is skipped, never fatal (the validation gate refused such rules already; this guards a hand-edited store).
 */

/** Every regex rule is case-insensitive and Unicode-aware, in the gate and in the pipeline alike. */
export const REGEX_FLAGS = 'iu';

export function compileRegex(pattern: string): RE2 {
  return new RE2(pattern, REGEX_FLAGS);
}

export interface CompiledRegex {
  set: InstanceType<typeof RE2.Set>;
  rules: { id: string; re: RE2 }[];
}

export interface CompiledRules {
  size: number;
  regex?: CompiledRegex;
  phrases: PhraseSet;
  exemplars: ExemplarMemory;
  /** Rule id → threat family and flag category. */
  meta: Map<string, { family?: string; category: string }>;
}

export const EMPTY_RULES: CompiledRules = { size: 0, phrases: new PhraseSet(), exemplars: new ExemplarMemory(), meta: new Map() };

const CATEGORIES = new Set(Object.keys(taxonomy.categories));

/** Flag category of a rule: the family's top-level taxonomy node, `injection` when unknown. */
export function categoryOf(family: string | undefined): string {
  const top = family?.split('/')[0];
  return top && CATEGORIES.has(top) ? top : 'injection';
}

export function compileRules(rules: readonly DynamicRule[]): { compiled: CompiledRules; skipped: string[] } {
  const phrases = new PhraseSet();
  const exemplars = new ExemplarMemory();
  const regexRules: { id: string; re: RE2 }[] = [];
  const meta = new Map<string, { family?: string; category: string }>();
  const skipped: string[] = [];
  for (const rule of rules) {
    let ok = false;
    try {
      if (rule.kind === 'regex') {
        regexRules.push({ id: rule.id, re: compileRegex(rule.pattern) });
        ok = true;
      } else if (rule.kind === 'phrase') ok = phrases.add(rule.id, rule.pattern);
      else if (rule.kind === 'exemplar') ok = exemplars.add(rule.id, rule.pattern);
    } catch {
      ok = false;
    }
    if (!ok) {
      skipped.push(rule.id);
      continue;
    }
    meta.set(rule.id, { ...(rule.family ? { family: rule.family } : {}), category: categoryOf(rule.family) });
  }
  let regex: CompiledRegex | undefined;
  if (regexRules.length > 0) {
    try {
      regex = { set: new RE2.Set(regexRules.map((r) => r.re), REGEX_FLAGS), rules: regexRules };
    } catch {
      // Cannot happen for patterns that compiled one by one; fall back to testing them individually.
      regex = { set: { test: () => true, match: () => regexRules.map((_, i) => i) } as unknown as CompiledRegex['set'], rules: regexRules };
    }
  }
  return { compiled: { size: meta.size, ...(regex ? { regex } : {}), phrases, exemplars, meta }, skipped };
}
