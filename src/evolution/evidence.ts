import decision from '../../config/decision.json' with { type: 'json' };
import type { Flag, Verdict } from '../inspect/types.js';

/**
 * What makes a blocked text material for a rule: evidence independent of the statistical models. The loop learns
 * attacks, not its own verdicts: a rule made from a text that only a model scored high would block that text (and
 * its kin) on its own from then on, so one model mistake — an ordinary tool result judged an indirect injection —
 * would become a permanent rule. Such a text is recorded as `refused` (`model_only`) and never analysed.
 *
 * Independent evidence is a flag at HIGH or above from a detector that reads structure or curated knowledge rather
 * than a learnt score: a curated injection pattern, a command indicator, the effect judge of a tool call, the
 * harmful-intent and jailbreak lexicon, the obfuscation decoder, the topology layer, the exfiltration checks of
 * the link layer. The statistical readings are the injection model's own flags, the causal arbiter (it explains
 * the model's flag), the transformer stage, the LLM judge and the URL model; two of them agreeing is not
 * independent (they learn from the same kinds of text). A reported miss (`POST /filter/feedback` `miss`) is the
 * other road: its rule always waits for an operator to confirm it.
 */

/** Layers whose every flag is a learnt score. */
const STATISTICAL_LAYERS = new Set<string>(['causal', 'hyperbolic', 'model', 'judge']);
/** Flags a learnt score raises inside layers that also hold rule detectors. */
const STATISTICAL_TYPES = new Set<string>(['prompt_injection', 'indirect_injection', 'dangerous_command', 'phishing_url']);
/** Never evidence of an attack in the content: a credential is redacted, a ban is about the sender. */
const NOT_CONTENT = new Set<string>(['secrets', 'ers']);

export function isStatistical(flag: Pick<Flag, 'layer' | 'type'>): boolean {
  return STATISTICAL_LAYERS.has(flag.layer) || STATISTICAL_TYPES.has(flag.type);
}

/**
 * The independent detector that judged `verdict` HIGH or above (`layer/type`), or undefined when only statistical
 * readings did. Only called on verdicts the loop would analyse (HIGH/BLOCK for what the content says).
 */
export function independentEvidence(verdict: Pick<Verdict, 'flags'>): string | undefined {
  const flag = verdict.flags.find((f) => f.score >= decision.thresholds.high && !NOT_CONTENT.has(f.layer) && f.type !== 'shadow_banned' && !isStatistical(f));
  return flag ? `${flag.layer}/${flag.type}` : undefined;
}
