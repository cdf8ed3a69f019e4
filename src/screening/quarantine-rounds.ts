import { riskOf } from '../inspect/layers/decision.js';
import type { Flag, Verdict } from '../inspect/types.js';
import { addSpan, entryOf, keepsEnough, MAX_ROUNDS, render, segmentSpanOf, type QuarantineEntry, type RemovedRange } from './quarantine.js';

/**
 * The quarantine's rounds over blocked tool results (quarantine.ts): cut the segment judge's span, judge the rewritten
 * text again (every pending result in one pool task per round), and repeat while it is still blocked and the judge
 * located another segment, at most MAX_ROUNDS times. A result is quarantined only when its rewrite is judged safe;
 * one whose block no span explains, whose span cannot be placed, or whose cut would leave too little of it, is not
 * (the caller blocks as before). Never forwards anything it did not judge.
 */

export interface Blocked {
  content: string;
  verdict: Verdict;
  at: { stage: QuarantineEntry['stage']; message?: number; call_id?: string };
}

export type Settled =
  | { quarantined: true; text: string; verdict: Verdict; entry: QuarantineEntry }
  | { quarantined: false };

/** Judges rewritten tool results (same tenant, policy and ERS as the first look; counted once by the caller). */
export type Rejudge = (contents: string[]) => Promise<Verdict[]>;

/** The flags a quarantined result adds to the exchange's counts: one per result and one per segment reason. */
export function quarantineFlags(entry: QuarantineEntry): Flag[] {
  return [
    { layer: 'quarantine' as Flag['layer'], type: 'quarantined_result', score: 1, category: 'quarantined_result' },
    ...entry.reasons.map((r) => ({ layer: 'quarantine' as Flag['layer'], type: 'quarantined_segment', score: 1, category: r.slice(0, 64) })),
  ];
}

/**
 * Whether the only thing still blocking a rewrite is the statistical model's reading of the whole rest: no segment,
 * pattern, structure, credential or URL finding at HIGH or above. A phishing mail or a suspicious diff the user asked
 * to have reviewed reads as an injection to the model all through, once its order to the assistant is cut.
 */
export function blockedByModelOnly(verdict: Pick<Verdict, 'flags'>): boolean {
  const blocking = verdict.flags.filter((f) => riskOf(f.score) === 'HIGH' || riskOf(f.score) === 'BLOCK');
  return blocking.length > 0 && blocking.every((f) => f.layer === 'semantic' && f.type === 'indirect_injection' && (f.detail ?? '').startsWith('model probability'));
}

/**
 * `contained`: the tenant's flow policy holds the result as untrusted (no call can carry its values out unchosen). Then a
 * rewrite from which at least one segment addressed to the assistant was cut, and that only the statistical model still
 * blocks, is forwarded with a `model_only_remainder` flag (quarantine.ts keeps the ranges; the flow policy the rest).
 */
export async function quarantineResults(blocked: readonly Blocked[], rejudge: Rejudge, { contained = false }: { contained?: boolean } = {}): Promise<Settled[]> {
  const state = blocked.map((b) => ({ ranges: [] as RemovedRange[], verdict: b.verdict, failed: false }));
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const pending: number[] = [];
    state.forEach((s, i) => {
      if (s.failed || s.verdict.action !== 'block') return;
      const span = segmentSpanOf(s.verdict);
      const ranges = span && addSpan(blocked[i].content, s.ranges, span, span.reason);
      if (!ranges || !keepsEnough(blocked[i].content, ranges)) {
        s.failed = true;
        return;
      }
      s.ranges = ranges;
      pending.push(i);
    });
    if (pending.length === 0) break;
    const verdicts = await rejudge(pending.map((i) => render(blocked[i].content, state[i].ranges)));
    if (verdicts.length !== pending.length) throw new Error('quarantine: the inspection answered a different number of texts');
    pending.forEach((i, k) => (state[i].verdict = verdicts[k]));
  }
  return state.map((s, i) => {
    if (s.ranges.length === 0) return { quarantined: false };
    const remainder = s.verdict.action === 'block' && contained && s.verdict.secrets.length === 0 && !segmentSpanOf(s.verdict) && blockedByModelOnly(s.verdict);
    if ((s.failed && !remainder) || (s.verdict.action === 'block' && !remainder)) return { quarantined: false };
    const rendered = render(blocked[i].content, s.ranges);
    if (remainder) {
      const flag: Flag = { layer: 'quarantine' as Flag['layer'], type: 'model_only_remainder', score: 0.5, category: 'quarantined_result' };
      return { quarantined: true, text: rendered, verdict: { ...s.verdict, flags: [...s.verdict.flags, flag] }, entry: entryOf(blocked[i].content, s.ranges, blocked[i].at) };
    }
    // A credential in what is left is redacted as in any result (the second judgement's redaction is of the rewrite).
    const text = s.verdict.action === 'redact' ? s.verdict.redacted_content : rendered;
    return { quarantined: true, text, verdict: s.verdict, entry: entryOf(blocked[i].content, s.ranges, blocked[i].at) };
  });
}
