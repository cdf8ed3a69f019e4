import type { Flag, RiskLevel, Verdict } from '../../inspect/types.js';
import { RISK_LEVELS } from '../../inspect/types.js';
import type { FastifyRequest } from 'fastify';
import { countOutcome } from '../../screening/exchange.js';
import type { Leak } from './leak-scanner.js';
import type { QuarantineEntry } from '../../screening/quarantine.js';

/** The `bastion` object added to OpenAI-shaped responses: metadata about the verdict, never content. */
export interface BastionInfo {
  request_id: string;
  risk_level: RiskLevel;
  action: 'block' | 'redact' | 'allow';
  reasons: { layer: string; type: string; score: number }[];
  threat_family?: string;
  /** Where the verdict applies: `request` (interception point A) or `tool_calls` / `output` (point B). */
  stage: 'request' | 'tool_calls' | 'output';
  /** For tool-call blocks: which calls were removed. */
  removed_tool_calls?: { id?: string; name?: string }[];
  /** Content parts forwarded or refused without inspection (images, audio, binary files…): count and types. */
  uninspected_parts?: { count: number; types: string };
  /** A call refused or withheld by the agent flow policy (docs/FLOWS.md): why, which results tainted it, its approval id. */
  flow?: Record<string, unknown>;
  /** Tool results of the request forwarded with the segments holding an injection replaced by a marker: counts, reasons, offsets. */
  quarantine?: QuarantineEntry[];
}

const withheld = (f: { status?: string }) => f.status !== 'flagged';

export function summarise(requestId: string, verdicts: Verdict[], stage: BastionInfo['stage']): BastionInfo {
  const worst = verdicts.reduce((a, v) => (RISK_LEVELS.indexOf(v.risk_level) > RISK_LEVELS.indexOf(a) ? v.risk_level : a), 'LOW' as RiskLevel);
  const action = verdicts.some((v) => v.action === 'block') ? 'block' : verdicts.some((v) => v.action === 'redact') ? 'redact' : 'allow';
  const seen = new Set<string>();
  const reasons: BastionInfo['reasons'] = [];
  for (const v of verdicts) {
    if (v.action === 'allow') continue;
    for (const f of v.flags as Flag[]) {
      const key = `${f.layer}:${f.type}`;
      if (f.score <= 0 || seen.has(key)) continue;
      seen.add(key);
      reasons.push({ layer: f.layer, type: f.type, score: f.score });
    }
  }
  const family = verdicts.find((v) => v.action === 'block' && v.threat_family)?.threat_family;
  // A flow refusal has no content flag: its reason is the flow itself.
  const flow = verdicts.map((v) => (v as { flow?: { flow: string; status?: string } }).flow).find((f) => f !== undefined && withheld(f));
  if (flow && !seen.has(`flows:${flow.flow}`)) reasons.unshift({ layer: 'flows', type: flow.flow, score: 1 });
  return { request_id: requestId, risk_level: worst, action, reasons: reasons.slice(0, 20), ...(family ? { threat_family: family } : {}), stage, ...(flow ? { flow } : {}) };
}

/**
 * Point [B] reached a verdict on an answer: the access log says so and the exchange counts it (the flags of removed
 * calls came with their judge() verdicts; an output verdict's reasons are the leaks, counted here).
 */
export function noteAnswer(request: FastifyRequest, point: 'response' | 'stream', bastion: BastionInfo): void {
  request.verdictSummary = `response:${bastion.stage}:${bastion.action}`;
  countOutcome(request, point, { action: bastion.action, risk_level: bastion.risk_level, reasons: bastion.stage === 'output' ? bastion.reasons : [] });
}

/** What point [B] did to one answer (Responses, Anthropic messages): the blocked calls it removed and the leaks it redacted. */
export interface OutputActions {
  readonly blocked: Verdict[];
  readonly removed: { id?: string; name?: string }[];
  readonly leaks: Leak[];
}

/** The answer's `bastion` object: the removed calls' verdicts first, else the leaks redacted; undefined when untouched. */
export function outputVerdict(requestId: string, actions: OutputActions): BastionInfo | undefined {
  if (actions.removed.length > 0) return { ...summarise(requestId, actions.blocked, 'tool_calls'), removed_tool_calls: actions.removed.slice(0, 64) };
  if (actions.leaks.length === 0) return undefined;
  const seen = new Set<string>();
  const reasons = actions.leaks.filter((l) => !seen.has(l.type) && seen.add(l.type)).slice(0, 20).map((l) => ({ layer: l.layer, type: l.type, score: 1 }));
  return { request_id: requestId, risk_level: 'HIGH', action: 'redact', reasons, stage: 'output' };
}
