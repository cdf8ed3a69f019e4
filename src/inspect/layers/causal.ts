import config from '../../../config/causal.json' with { type: 'json' };
import { findCause } from '../causal/ablation.js';
import { segmentsOf } from '../causal/segments.js';
import { documentMention, lineEndAfter, lineStartBefore, mentionStrength, provenanceOf, type MentionStrength } from '../causal/provenance.js';
import { featuresOf } from '../semantic/chunk-features.js';
import { modelKind, newSink } from '../semantic/featurize.js';
import { applySegmentJudge } from '../segments/apply.js';
import type { SemanticModel } from '../semantic/model.js';
import type { Flag, InspectionContext, Layer, Span } from '../types.js';
import { semanticModel } from './semantic.js';

/**
 * Layer 6, causal arbiter: is flagged content operative (it would make the model act) or merely mentioned
 * (quoted, shown as code, discussed in a security article)? For the semantic model's flag, counterfactual
 * ablation finds the segments whose removal makes the risk fall away (the cause); structural pattern flags
 * carry their own span. A cause that is mentioned, not used, caps the flags it explains (config/causal.json);
 * an operative cause is recorded on the flag's span and, when policy.neutralizeCauses is set, pushed to
 * ctx.neutralize so the decision can neutralise it instead of blocking. A tool_call is always operative.
 * Provenance (ctx.role) comes first: a tool_call is always operative; instructions in the app's own system message
 * are the app's configuration, not an attack on it, so under systemMessages 'secrets_only' the model's flag there is
 * not ablated (no cause to find: the decision reports it without enforcing it); curated patterns are still judged. User
 * and tool text is judged by the use/mention evidence below.
 * Signals: causal.rescores, causal.residual, causal.operative (0/1), causal.mention (0 none, 0.5 weak, 1 strong),
 * causal.app_instructions (1 when a model flag sat on the app's own system message).
 */

const MODEL_TYPES = new Set(['prompt_injection', 'indirect_injection']);
const STRENGTH_VALUE: Record<MentionStrength, number> = { none: 0, weak: 0.5, strong: 1 };

function weakest(values: MentionStrength[]): MentionStrength {
  if (values.includes('none')) return 'none';
  return values.includes('weak') ? 'weak' : 'strong';
}

function stronger(a: MentionStrength, b: MentionStrength): MentionStrength {
  return STRENGTH_VALUE[a] >= STRENGTH_VALUE[b] ? a : b;
}

/** The sentence or line around a pattern match: what neutralisation removes for an operative pattern. */
function enclosingSegment(text: string, span: Span): Span {
  const segments = segmentsOf(text, { start: lineStartBefore(text, span.start), end: lineEndAfter(text, span.end) }, config.maxSegments);
  const hit = segments.find((s) => s.start <= span.start && s.end >= span.start);
  return hit ? { start: hit.start, end: Math.max(hit.end, span.end) } : span;
}

function cap(flag: Flag, strength: MentionStrength): void {
  if (strength === 'none') return;
  const limit = strength === 'strong' ? config.caps.strong : config.caps.weak;
  if (flag.score > limit) {
    flag.score = limit;
    flag.detail = `${flag.detail ?? flag.type}; mentioned, not operative (${strength})`;
  }
}

export function createCausalLayer(model: SemanticModel): Layer {
  const sink = newSink();
  return {
    name: 'causal',
    run(ctx: InspectionContext) {
      arbitrate(ctx);
      // Tool results are also judged segment by segment, by whom each segment addresses (src/inspect/segments/).
      applySegmentJudge(ctx);
    },
  };

  function arbitrate(ctx: InspectionContext): void {
    if (ctx.kind === 'tool_call') return;
    const flags = ctx.flags.filter((f) => f.layer === 'semantic' && f.category !== 'dangerous_action' && f.score >= config.residualThreshold);
    if (flags.length === 0) return;
    const appInstructions = ctx.role === 'system' && ctx.policy.systemMessages === 'secrets_only';
    let strongest: MentionStrength = 'none';
    for (const flag of flags) {
      if (MODEL_TYPES.has(flag.type) && appInstructions) {
        ctx.signals['causal.app_instructions'] = 1;
        continue;
      }
      if (MODEL_TYPES.has(flag.type)) {
        const viewIndex = ctx.signals['semantic.view_index'] ?? 0;
        const view = ctx.views[viewIndex] ?? ctx.views[0];
        const chunk = { start: ctx.signals['semantic.chunk_start'] ?? 0, end: Math.min(ctx.signals['semantic.chunk_end'] ?? view.text.length, view.text.length) };
        const known = featuresOf(ctx.semanticFeatures, ctx.views[viewIndex] ? viewIndex : 0, chunk.start, chunk.end);
        const result = findCause(model, view.text, chunk, modelKind(ctx.kind), sink, known?.length);
        ctx.signals['causal.rescores'] = result.rescores;
        ctx.signals['causal.residual'] = Math.round(result.residual * 1000) / 1000;
        let strength: MentionStrength = result.cause ? weakest(result.cause.segments.map((seg) => mentionStrength(provenanceOf(view.text, seg)))) : 'none';
        const covered = result.cause ? result.cause.segments.reduce((n, seg) => n + seg.end - seg.start, 0) : 0;
        if (strength === 'none' && (!result.cause || covered > 0.7 * (chunk.end - chunk.start))) {
          // No separable cause: the risk is spread over the chunk, which is judged whole.
          strength = documentMention(view.text, result.segments.length > 0 ? result.segments : [{ ...chunk, code: false }]);
        }
        if (strength !== 'none') {
          cap(flag, strength);
          strongest = stronger(strongest, strength);
          continue;
        }
        if (!result.cause) {
          ctx.signals['causal.operative'] = 1;
          continue;
        }
        ctx.signals['causal.operative'] = 1;
        // Spans in a decoded view map back to the encoded source they came from.
        const spans: Span[] = viewIndex === 0 ? result.cause.segments.map((s) => ({ start: s.start, end: s.end })) : [flag.span ?? { start: 0, end: ctx.content.length }];
        flag.span = spans[0];
        if (ctx.policy.neutralizeCauses) {
          ctx.neutralize.push(...spans);
          ctx.signals['causal.neutralized'] = 1;
        }
      } else if (flag.span) {
        // A pattern match is judged with the sentence around it: "such as \"ignore previous instructions\"".
        const strength = mentionStrength(provenanceOf(ctx.content, enclosingSegment(ctx.content, flag.span)));
        cap(flag, strength);
        strongest = stronger(strongest, strength);
        if (strength === 'none' && ctx.policy.neutralizeCauses) {
          ctx.neutralize.push(enclosingSegment(ctx.content, flag.span));
          ctx.signals['causal.neutralized'] = 1;
        }
      }
    }
    ctx.signals['causal.mention'] = STRENGTH_VALUE[strongest];
  }
}

export const causalLayer: Layer = createCausalLayer(semanticModel);
