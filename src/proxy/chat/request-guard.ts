import type { FastifyRequest } from 'fastify';
import { judge, type Judgement } from '../filter/judge.js';
import { tenantPolicies } from '../../policy/tenant-policies.js';
import { applyRedactions, describeUninspected, extractTexts, type ChatMessage } from './messages.js';
import { countOutcome, countVerdicts } from '../../screening/exchange.js';
import { quarantineBlocked, type LocatedText } from '../../screening/quarantine-guard.js';
import type { QuarantineEntry } from '../../screening/quarantine.js';
import { summarise, type BastionInfo } from './verdict-summary.js';

export type RequestOutcome =
  | { kind: 'shadow_banned' }
  | { kind: 'blocked'; bastion: BastionInfo }
  | { kind: 'forward'; messages: ChatMessage[]; redacted: boolean; quarantine?: QuarantineEntry[] };

export interface Uninspected {
  count: number;
  /** `image_url=2, file=1` */
  types: string;
}

/**
 * Interception point [A]: every message the client sends is inspected by role in one pool task (the role is the
 * text's provenance: the app's own system/developer messages are weighed under the tenant's system_messages policy);
 * the tenant's ERS is read before and updated after. Blocked → never forwarded; redact → the redacted messages are
 * forwarded. Content parts that cannot be read as text are reported (`uninspected`) and, under the tenant policy
 * content_parts=block_unknown, refuse the request.
 */
export async function guardRequest(request: FastifyRequest, messages: ChatMessage[]): Promise<RequestOutcome & { uninspected?: Uninspected }> {
  const { refs, uninspected: byType, uninspectedCount } = extractTexts(messages);
  const located = refs.map((ref) => {
    const callId = messages[ref.message].tool_call_id;
    return { ...ref, at: { message: ref.message, ...(typeof callId === 'string' ? { call_id: callId } : {}) } };
  });
  const outcome = await guardTexts(request, located, uninspectedCount > 0 ? byType : undefined);
  if (outcome.kind !== 'forward') return outcome;
  const { redactions, uninspected, quarantine } = outcome;
  const redacted = redactions.some((r) => r !== undefined);
  return { kind: 'forward', messages: redacted ? applyRedactions(messages, refs, redactions) : messages, redacted, uninspected, ...(quarantine ? { quarantine } : {}) };
}

export type TextsOutcome =
  | { kind: 'shadow_banned'; uninspected?: Uninspected }
  | { kind: 'blocked'; bastion: BastionInfo; uninspected?: Uninspected }
  | { kind: 'forward'; redactions: (string | undefined)[]; uninspected?: Uninspected; quarantine?: QuarantineEntry[] };

/**
 * The request-side decision shared by the chat and Responses routes: the texts (with their kind and provenance) are
 * judged in one pool task against the tenant's ERS; any block refuses the request; uninspectable parts are reported
 * and, under content_parts=block_unknown, refuse it. Otherwise the per-text redactions (undefined: unchanged).
 * A block of tool results only is quarantined where it can be (src/screening/quarantine-guard.ts): the rewritten results
 * come back as redactions and the verdict's `quarantine` entries say what was removed.
 */
export async function guardTexts(request: FastifyRequest, texts: LocatedText[], uninspectedByType?: Record<string, number>): Promise<TextsOutcome> {
  const count = uninspectedByType ? Object.values(uninspectedByType).reduce((a, b) => a + b, 0) : 0;
  const uninspected = count > 0 ? { count, types: describeUninspected(uninspectedByType!) } : undefined;
  const tenant = request.principal!.tenantId;
  const { config, ers } = request.server.services;
  let judgements: Judgement[] = [];
  let shadowBanned: boolean;
  if (texts.length > 0) {
    // Counted below, once it is known whether a blocked tool result is quarantined instead.
    judgements = await judge(request, texts.map((r) => ({ content: r.content, kind: r.kind, role: r.role })), { entity: tenant, contentLimitBytes: config.contentLimitBytes, record: false });
    shadowBanned = judgements[0].ers.shadow_banned;
  } else {
    shadowBanned = (await ers.read(tenant)).shadowBanned;
  }
  const quarantined = shadowBanned ? undefined : await quarantineBlocked(request, tenant, texts, judgements, 'request');
  if (judgements.length > 0) countVerdicts(request, 'request', quarantined?.verdicts ?? judgements);
  if (shadowBanned) {
    request.verdictSummary = 'shadow_banned';
    return { kind: 'shadow_banned', uninspected };
  }
  const withParts = uninspected ? { uninspected_parts: uninspected } : {};
  const blocked = quarantined ? [] : judgements.filter((j) => j.action === 'block');
  if (blocked.length > 0) {
    return { kind: 'blocked', bastion: { ...summarise(request.id, blocked, 'request'), ...withParts }, uninspected };
  }
  if (uninspected && (await tenantPolicies(request.server.services).get(tenant)).contentParts === 'block_unknown') {
    request.verdictSummary = 'block/uninspectable_parts';
    countOutcome(request, 'request', { action: 'block', risk_level: 'HIGH', reasons: [{ layer: 'decision', type: 'uninspectable_content_part' }] });
    return {
      kind: 'blocked',
      bastion: { request_id: request.id, risk_level: 'HIGH', action: 'block', reasons: [{ layer: 'decision', type: 'uninspectable_content_part', score: 1 }], stage: 'request', ...withParts },
      uninspected,
    };
  }
  const redactions = judgements.map((j, i) => quarantined?.rewrites.get(i) ?? (j.action === 'redact' ? j.redacted_content : undefined));
  const quarantine = quarantined && quarantined.entries.length > 0 ? quarantined.entries : undefined;
  if (quarantine) request.verdictSummary = `${request.verdictSummary ?? ''} quarantined:${quarantine.length}`.trim();
  return { kind: 'forward', redactions, uninspected, ...(quarantine ? { quarantine } : {}) };
}
