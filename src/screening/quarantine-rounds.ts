import { riskOf } from '../inspect/layers/decision.js';
import { isModelReading } from '../inspect/model-reading.js';
import { redact } from '../inspect/redact.js';
import type { Flag, Span, Verdict } from '../inspect/types.js';
import { addSpan, entryOf, keepsEnough, LINK_MARKER, MAX_ROUNDS, render, segmentSpanOf, type QuarantineEntry, type RemovedRange } from './quarantine.js';

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

const blocking = (f: Flag): boolean => riskOf(f.score) === 'HIGH' || riskOf(f.score) === 'BLOCK';

/**
 * Whether the only thing still blocking a rewrite is the statistical model's reading of the whole rest: no segment,
 * pattern, structure, credential or URL finding at HIGH or above. A phishing mail or a suspicious diff the user asked
 * to have reviewed reads as an injection to the model all through, once its order to the assistant is cut.
 */
export function blockedByModelOnly(verdict: Pick<Verdict, 'flags'>): boolean {
  const blockers = verdict.flags.filter(blocking);
  return blockers.length > 0 && blockers.every((f) => isModelReading(f, 'indirect_injection'));
}

/**
 * The next range to cut: the segment judge's span; in a contained result, once no segment is left, a phishing link
 * lure that still blocks it (the phishing mail the user asked to have reported keeps its words, not its link).
 */
function nextCut(verdict: Verdict, contained: boolean): (Span & { reason: string; marker?: string }) | undefined {
  const segment = segmentSpanOf(verdict);
  if (segment || !contained) return segment;
  // A lure (phishing_url), not a link that carries data out: that one names what it would leak and stays refused.
  const link = verdict.flags.find((f) => f.layer === 'phishing' && f.type === 'phishing_url' && f.span && blocking(f));
  return link?.span ? { start: link.span.start, end: link.span.end, reason: `link:${link.type.slice(0, 40)}`, marker: LINK_MARKER } : undefined;
}

/**
 * `contained`: the tenant's flow policy holds the result as untrusted (no call can carry its values out unchosen). Then
 * blocking phishing links are cut too, a cut may leave less than MIN_KEPT_SHARE (a short comment that is mostly its
 * order to the assistant is still what the user asked to moderate), and a rewrite from which at least one segment
 * was cut and that only the statistical model still blocks is forwarded with a `model_only_remainder` flag, its
 * personal data redacted (quarantine.ts keeps the ranges; the flow policy the rest).
 */
export async function quarantineResults(blocked: readonly Blocked[], rejudge: Rejudge, { contained = false }: { contained?: boolean } = {}): Promise<Settled[]> {
  const state = blocked.map((b) => ({ ranges: [] as RemovedRange[], verdict: b.verdict, failed: false }));
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const pending: number[] = [];
    state.forEach((s, i) => {
      if (s.failed || s.verdict.action !== 'block') return;
      const span = nextCut(s.verdict, contained);
      const ranges = span && addSpan(blocked[i].content, s.ranges, span, span.reason, span.marker);
      if (!ranges || !(contained || keepsEnough(blocked[i].content, ranges))) {
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
    // Only once a segment addressed to the assistant was cut: a link cut alone does not explain the model's reading.
    const segmentCut = s.ranges.some((r) => r.marker === undefined);
    const remainder = s.verdict.action === 'block' && contained && segmentCut && !nextCut(s.verdict, contained) && blockedByModelOnly(s.verdict);
    if ((s.failed && !remainder) || (s.verdict.action === 'block' && !remainder)) return { quarantined: false };
    const rendered = render(blocked[i].content, s.ranges);
    if (remainder) {
      const flag: Flag = { layer: 'quarantine' as Flag['layer'], type: 'model_only_remainder', score: 0.5, category: 'quarantined_result' };
      const text = s.verdict.secrets.length ? redact(rendered, s.verdict.secrets, []) : rendered;
      return { quarantined: true, text, verdict: { ...s.verdict, flags: [...s.verdict.flags, flag] }, entry: entryOf(blocked[i].content, s.ranges, blocked[i].at) };
    }
    // A credential in what is left is redacted as in any result (the second judgement's redaction is of the rewrite).
    const text = s.verdict.action === 'redact' ? s.verdict.redacted_content : rendered;
    return { quarantined: true, text, verdict: s.verdict, entry: entryOf(blocked[i].content, s.ranges, blocked[i].at) };
  });
}
