import config from '../../../config/evolution.json' with { type: 'json' };
import type { Flag, InspectionContext, Span, View } from '../types.js';
import type { CompiledRules } from './compile.js';
import { shingles } from './exemplar.js';
import { words } from './normalize.js';

/**
 * Evolved rules over the content and every decoded view (within a character budget, like the semantic layer).
 * Pure: called by the pipeline after the static layers and before the decision, which then weighs a hit like any
 * other flag. A hit is a `semantic` flag of type `evolved_rule` whose detail is the rule id (what hit counters and
 * false-positive feedback refer to).
 */

export const EVOLVED_RULE = 'evolved_rule';

/** A view, optionally with its words and shingles computed once (the validation gate reuses them per candidate). */
export interface MatchView extends View {
  words?: string[];
  shingles?: Set<number>;
}

/** Characters of views scanned per inspection: a few times the content, never more than a megabyte. */
export function viewBudget(contentLength: number): number {
  return Math.min(config.maxViewBudgetChars, Math.max(contentLength, 4096) * config.viewBudgetFactor);
}

/** Rule id → span of the first hit (in the content when it was found in the original text). */
export function ruleHits(rules: CompiledRules, views: readonly MatchView[], budget: number, firstOnly = false): Map<string, Span | undefined> {
  const hits = new Map<string, Span | undefined>();
  if (rules.size === 0) return hits;
  const wantWords = rules.phrases.size > 0 || rules.exemplars.size > 0;
  for (const view of views) {
    if (view.text.length === 0 || view.text.length > budget) continue;
    budget -= view.text.length;
    const whole = view.name === 'original' ? undefined : view.source;
    if (rules.regex && rules.regex.set.test(view.text)) {
      for (const i of rules.regex.set.match(view.text)) {
        const { id, re } = rules.regex.rules[i];
        if (hits.has(id)) continue;
        const m = re.exec(view.text);
        hits.set(id, m && view.name === 'original' ? { start: m.index, end: m.index + m[0].length } : whole);
      }
    }
    if (firstOnly && hits.size > 0) return hits;
    if (!wantWords) continue;
    const ws = view.words ?? words(view.text);
    for (const id of rules.phrases.match(ws)) if (!hits.has(id)) hits.set(id, whole);
    if (rules.exemplars.size > 0) {
      for (const hit of rules.exemplars.match(view.shingles ?? shingles(ws))) if (!hits.has(hit.id)) hits.set(hit.id, whole);
    }
    if (firstOnly && hits.size > 0) return hits;
  }
  return hits;
}

export function applyRules(ctx: InspectionContext, rules: CompiledRules): void {
  const hits = ruleHits(rules, ctx.views, viewBudget(ctx.content.length));
  let added = 0;
  for (const [id, span] of hits) {
    if (added++ >= config.maxFlagsPerInspection) break;
    const meta = rules.meta.get(id);
    const flag: Flag = { layer: 'semantic', type: EVOLVED_RULE, score: config.flagScore, detail: id, category: meta?.category ?? 'injection' };
    if (span) flag.span = span;
    ctx.flags.push(flag);
    // The rule knows its family; the hyperbolic placement, when there is one, stays authoritative.
    if (!ctx.threatFamily && meta?.family) ctx.threatFamily = meta.family;
  }
}
