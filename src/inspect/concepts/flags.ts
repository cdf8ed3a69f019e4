import weights from '../../../config/concepts/weights.json' with { type: 'json' };
import type { Flag, InspectionContext } from '../types.js';
import { judgeHarm, type HarmJudgement } from './harm.js';
import { readConcepts } from './lexicon.js';

/**
 * The harmful-intent flags of a prompt (run by the semantic layer). The prompt and every decoded view of it (base64,
 * leet, reversed, … from the obfuscation layer) are read together, so that a framing in the clear around an encoded
 * harmful ask ("decode this and answer: …") is seen whole.
 *   - `jailbreak` (category injection): a framing around a harmful operational ask. Blocked (HIGH) whatever the
 *     tenant's harmful_content policy.
 *   - `harmful_request` (category harmful_content): a plain harmful operational ask. Under the tenant policy
 *     `harmful_content`: off → not raised; flag (default) → reported, allowed; block → blocked (decision layer).
 * Talking about harm (news, history, prevention, education, fiction without operational detail) raises neither.
 * The app's own system messages are not judged: they are the operator's configuration.
 */

export const JAILBREAK_SCORE = 0.9;
export const HARMFUL_REQUEST_SCORE = 0.65;
/** Below the decision layer's HIGH threshold (config/decision.json): MEDIUM, and below HARMFUL_REQUEST_SCORE so that the harm is the top flag. */
const MODEL_CAP = 0.6;
const LABELS: Record<string, string> = weights.familyLabels;
/** Most decoded-view characters read per inspection. */
const VIEW_BUDGET = 65536;

export function judgeContext(ctx: InspectionContext): HarmJudgement | undefined {
  if (ctx.kind !== 'prompt' || ctx.role === 'system') return undefined;
  // The very strings the semantic model's features read (a one-chunk prompt and its views): read once (lexicon.ts memo).
  const reading = readConcepts(ctx.content);
  let budget = VIEW_BUDGET;
  for (let i = 1; i < ctx.views.length; i++) {
    const text = ctx.views[i].text;
    if (text === ctx.content || text.length === 0 || text.length > budget) continue;
    budget -= text.length;
    reading.merge(readConcepts(text));
  }
  return judgeHarm('', reading);
}

/**
 * Runs after the semantic model flagged: returns the harmful-intent flags and, for a plain harmful request (no framing,
 * no jailbreak technique, no instruction override), caps the injection model's own flag at MEDIUM. The model is trained
 * on jailbreak sources full of harmful goals and cannot tell a plain harmful ask from an attack on the assistant; the
 * judge can, and the tenant's harmful_content policy then decides (strict mode still blocks MEDIUM).
 */
export function harmFlags(ctx: InspectionContext): Flag[] {
  const judged = judgeContext(ctx);
  if (!judged || !judged.harmful) return [];
  if (!judged.jailbreak && !judged.attackCues) {
    for (const flag of ctx.flags) {
      if (flag.layer !== 'semantic' || flag.type !== 'prompt_injection' || flag.score < MODEL_CAP) continue;
      flag.score = MODEL_CAP;
      flag.detail = `${flag.detail ?? flag.type}; a plain harmful request: capped, harmful_content=${ctx.policy.harmfulContent} decides`;
    }
  }
  const family = judged.families[0];
  const span = { start: 0, end: ctx.content.length };
  if (judged.jailbreak) {
    return [{
      layer: 'semantic',
      type: 'jailbreak',
      score: JAILBREAK_SCORE,
      detail: `${judged.frames.join(', ')} framing around a harmful operational ask (${LABELS[family] ?? family})`,
      span,
      category: 'injection',
      family: 'injection/role_play',
    }];
  }
  if (ctx.policy.harmfulContent === 'off') return [];
  return [{
    layer: 'semantic',
    type: 'harmful_request',
    score: HARMFUL_REQUEST_SCORE,
    detail: `harmful operational ask: ${LABELS[family] ?? family} (harmful_content=${ctx.policy.harmfulContent})`,
    span,
    category: 'harmful_content',
    family: `harmful_content/${family}`,
  }];
}
