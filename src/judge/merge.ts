import type { InspectionRequest, JudgeReport, Verdict } from '../inspect/types.js';
import type { JudgeOutcome, JudgeResult, LlmJudge } from './client.js';
import { categoryName } from './prompts.js';

/**
 * Where the LLM judge's opinion goes (docs/CONFIGURATION.md, "LLM judge").
 * It is asked about allowed verdicts in the uncertain band: risk MEDIUM (a flag between the medium and high
 * thresholds), or a text whose embedded flag the transformer model cleared. It can only add a block:
 * - attack: a `judge` flag (prompt_injection or harmful_content, with the Llama Guard codes) blocks, unless the tenant's
 *   category action for that category is `flag` (then reported only); the threat family becomes the judge's.
 * - benign, or no opinion (timeout, error, unreadable answer, a bound reached): the verdict stands as it was.
 */
export function needsJudge(v: Verdict): boolean {
  return v.allowed && (v.risk_level === 'MEDIUM' || v.layers?.model?.effect === 'cleared');
}

export function applyJudge(v: Verdict, req: InspectionRequest, result: JudgeResult): Verdict {
  const timings_ms = { ...v.timings_ms, judge: result.ms };
  if ('none' in result) return { ...v, timings_ms, layers: { ...v.layers, judge: { verdict: 'none', reason: result.none, cached: false } } };
  const { opinion, cached } = result;
  if (opinion.verdict === 'benign') return { ...v, timings_ms, layers: { ...v.layers, judge: { verdict: 'benign', cached } } };
  const report: JudgeReport = { verdict: 'attack', category: opinion.category, codes: opinion.codes, cached };
  const names = opinion.codes.map((c) => `${c} ${categoryName(c)}`).join(', ');
  const flags = [...v.flags, { layer: 'judge' as const, type: opinion.category === 'injection' ? 'prompt_injection' : 'harmful_content', score: 0.9, category: opinion.category, detail: `LLM judge: ${opinion.category}${names ? ` (${names})` : ''}` }];
  if (req.policy?.categoryActions?.[opinion.category] === 'flag') return { ...v, flags, timings_ms, layers: { ...v.layers, judge: report } };
  return {
    ...v,
    allowed: false,
    action: 'block',
    risk_level: v.risk_level === 'BLOCK' ? 'BLOCK' : 'HIGH',
    redacted_content: req.content,
    flags,
    ...(opinion.family ? { threat_family: opinion.family } : {}),
    timings_ms,
    layers: { ...v.layers, judge: report },
  };
}

/** What one judged text came to: an opinion (did it add a block?) or none and why. */
export function outcomeOf(before: Verdict, result: JudgeResult, after: Verdict): JudgeOutcome {
  return 'none' in result ? { answered: false, cause: result.none } : { answered: true, addedBlock: before.allowed && !after.allowed };
}

/**
 * Asks the judge about each verdict in its band, all at once (each call bounded by the judge itself). Each outcome is
 * counted for the tenant's day and handed to `observe` (metrics).
 */
export async function reviewWithJudge(
  judge: LlmJudge,
  tenant: string,
  requests: readonly InspectionRequest[],
  verdicts: Verdict[],
  observe: (outcome: JudgeOutcome) => void = () => {},
): Promise<Verdict[]> {
  return Promise.all(
    verdicts.map(async (v, i) => {
      if (!needsJudge(v)) return v;
      const result = await judge.ask(tenant, requests[i].content, requests[i].kind);
      const judged = applyJudge(v, requests[i], result);
      const outcome = outcomeOf(v, result, judged);
      judge.record(tenant, outcome);
      observe(outcome);
      return judged;
    }),
  );
}
