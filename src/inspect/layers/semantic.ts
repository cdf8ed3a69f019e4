import settings from '../../../config/semantic.json' with { type: 'json' };
import modelFile from '../../../models/semantic.json' with { type: 'json' };
import { harmFlags } from '../concepts/flags.js';
import { effectFlags } from '../effects/flags.js';
import { meaningVouches } from '../effects/args/meaning.js';
import { judgeToolCall } from '../effects/judge.js';
import { isInternalReadCall, isReadOnlyCloudCall } from '../effects/read-only.js';
import { modelKind, newSink } from '../semantic/featurize.js';
import { loadSemanticModel, scoreText, type SemanticModel, type SemanticModelFile, type TextScore } from '../semantic/model.js';
import { matchPatterns } from '../semantic/patterns.js';
import type { Indicator } from '../semantic/shell-features.js';
import type { Flag, InspectionContext, Layer, Span } from '../types.js';

/**
 * Layer 4, semantic guard. A calibrated statistical model (models/semantic.json, `npm run train`) scores the
 * content and every decoded view the obfuscation layer produced (max over views, within a character budget);
 * curated structural patterns and command indicators add direct flags. The flag score is the model's risk score
 * (anchored at out-of-fold operating points, so that HIGH blocks about `operatingFpr.high` of benign traffic).
 * Writes `semantic.probability` (calibrated), `semantic.risk`,
 * `semantic.logit`, the span of the content the score refers to (`semantic.span_start`/`semantic.span_end`) and
 * where the highest-scoring chunk lies (`semantic.view_index` into ctx.views, `semantic.chunk_start`/`chunk_end`
 * within that view's text) so the hyperbolic brain and the causal arbiter work on the same evidence.
 * Tool calls are also judged by their effect (src/inspect/effects/: parsed shell, SQL and JSON arguments); prompts by
 * their harmful intent and jailbreak framing (src/inspect/concepts/: `jailbreak`, `harmful_request`).
 */

const FLAG_TYPE = { prompt: 'prompt_injection', tool_result: 'indirect_injection', tool_call: 'dangerous_command' } as const;

interface Best extends TextScore {
  view: string;
  viewIndex: number;
  /** Span in the submitted content the score refers to. */
  source: Span;
}

function bestOf(score: TextScore, view: string, viewIndex: number, source: Span): Best {
  return { logit: score.logit, probability: score.probability, risk: score.risk, span: score.span, view, viewIndex, source };
}

function scanBudget(contentLength: number): number {
  return Math.min(settings.maxViewChars, Math.max(contentLength, 1024) * settings.viewBudgetFactor);
}

export function createSemanticLayer(model: SemanticModel): Layer {
  const sink = newSink();
  return {
    name: 'semantic',
    run(ctx: InspectionContext) {
      const kind = modelKind(ctx.kind);
      const matched: Indicator[] = [];
      const original = scoreText(model, ctx.content, kind, sink, matched);
      // Written out rather than spread: spreading the score into a literal with more fields costs µs per call in V8.
      let best: Best = bestOf(original, 'original', 0, original.span);
      // Which text the sink's features are of: the last chunk of the last text scored.
      let lastView = 0;
      let lastLength = ctx.content.length;
      let budget = scanBudget(ctx.content.length);
      const patternHits = matchPatterns(ctx.content, ctx.kind).map((h) => ({ ...h, view: 'original' }));
      for (let viewIndex = 1; viewIndex < ctx.views.length; viewIndex++) {
        const view = ctx.views[viewIndex];
        if (view.text === ctx.content || view.text.length === 0) continue;
        if (view.text.length > budget) continue;
        budget -= view.text.length;
        const scored = scoreText(model, view.text, kind, sink, matched);
        lastView = viewIndex;
        lastLength = view.text.length;
        const source = view.source ?? { start: 0, end: ctx.content.length };
        if (scored.logit > best.logit) best = bestOf(scored, view.name, viewIndex, source);
        for (const hit of matchPatterns(view.text, ctx.kind)) patternHits.push({ ...hit, span: source, view: view.name });
      }
      ctx.signals['semantic.probability'] = best.probability;
      ctx.signals['semantic.risk'] = best.risk;
      ctx.signals['semantic.logit'] = best.logit;
      ctx.signals['semantic.span_start'] = best.source.start;
      ctx.signals['semantic.span_end'] = best.source.end;
      ctx.signals['semantic.view_index'] = best.viewIndex;
      ctx.signals['semantic.chunk_start'] = best.span.start;
      ctx.signals['semantic.chunk_end'] = best.span.end;
      // Chunks end at their text's end only when they are its last: then the sink still holds the best chunk's features.
      if (best.viewIndex === lastView && best.span.end === lastLength) {
        ctx.semanticFeatures = { viewIndex: lastView, start: best.span.start, end: best.span.end, sink, stamp: sink.stamp };
      }
      const category = kind === 'tool_call' ? 'dangerous_action' : 'injection';
      if (best.risk >= settings.flagThreshold) {
        const short = kind !== 'tool_call' && tooShortForHigh(ctx.content);
        // A read-only cloud or cluster command (describe/list/get), a GET to an internal host, or an action the effect
        // judge read and vouches for (an internal forwarding rule, a payment to a known payee): reported, not blocked.
        const readOnly = kind === 'tool_call' && best.risk >= READ_ONLY_CAP && (isReadOnlyCloudCall(ctx.content) || isInternalReadCall(ctx.content) || meaningVouches(ctx.content)) && judgeToolCall(ctx.content).length === 0;
        ctx.flags.push({
          layer: 'semantic',
          type: FLAG_TYPE[kind],
          score: round(short ? Math.min(best.risk, settings.shortText.cap) : readOnly ? READ_ONLY_CAP : best.risk),
          detail: `model probability ${best.probability.toFixed(2)}, risk ${best.risk.toFixed(2)}${best.view === 'original' ? '' : ` in decoded view ${best.view}`}`,
          span: best.source,
          category,
        });
      }
      const seen = new Set<string>();
      for (const hit of patternHits) {
        if (seen.has(hit.id)) continue;
        seen.add(hit.id);
        ctx.flags.push(patternFlag(hit.id, hit.score, hit.span, hit.view));
      }
      for (const indicator of matched) {
        if (indicator.flagScore === undefined || seen.has(indicator.id)) continue;
        if (ctx.kind === 'tool_call' && EFFECT_JUDGED_INDICATORS.has(indicator.id)) continue;
        seen.add(indicator.id);
        ctx.flags.push({
          layer: 'semantic',
          type: 'dangerous_command_indicator',
          score: indicator.flagScore,
          detail: `${indicator.id} (${indicator.leaf})`,
          category: 'dangerous_action',
        });
      }
      if (ctx.kind === 'tool_call') ctx.flags.push(...effectFlags(ctx.content, ctx.views));
      else ctx.flags.push(...harmFlags(ctx));
    },
  };
}

/**
 * Indicators whose flag the effect judge replaces on tool calls: it tells a client of the metadata endpoint from a
 * firewall rule or a grep that names it. The indicator still feeds the model.
 */
const EFFECT_JUDGED_INDICATORS = new Set(['cloud_metadata']);

/** Below the decision layer's HIGH threshold (config/decision.json): MEDIUM, reported. */
const READ_ONLY_CAP = 0.7;

function patternFlag(id: string, score: number, span: Span, view: string): Flag {
  return {
    layer: 'semantic',
    type: id,
    score,
    detail: view === 'original' ? 'curated injection pattern' : `curated injection pattern in decoded view ${view}`,
    span,
    category: 'injection',
  };
}

/** Fewer letters and words than config/semantic.json `shortText` allows a HIGH model score on. */
function tooShortForHigh(text: string): boolean {
  if (text.length > 200) return false;
  const letters = text.match(/[\p{L}\p{N}]/gu)?.length ?? 0;
  const words = text.match(/[\p{L}\p{N}]+/gu)?.length ?? 0;
  return letters < settings.shortText.maxLetters && words <= settings.shortText.maxWords;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** The committed model, shared with the causal arbiter (which re-scores ablated text with it). */
export const semanticModel: SemanticModel = loadSemanticModel(modelFile as unknown as SemanticModelFile);

export const semanticLayer: Layer = createSemanticLayer(semanticModel);
