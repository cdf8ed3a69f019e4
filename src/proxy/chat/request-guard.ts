import type { FastifyRequest } from 'fastify';
import { judge, type Judgement } from '../filter/judge.js';
import { applyRedactions, extractTexts, type ChatMessage } from './messages.js';
import { summarise, type BastionInfo } from './verdict-summary.js';

export type RequestOutcome =
  | { kind: 'shadow_banned' }
  | { kind: 'blocked'; bastion: BastionInfo }
  | { kind: 'forward'; messages: ChatMessage[]; redacted: boolean };

/**
 * Interception point [A]: every message the client sends is inspected by role in one pool task; the tenant's ERS
 * is read before and updated after. Blocked → never forwarded; redact → the redacted messages are forwarded.
 */
export async function guardRequest(request: FastifyRequest, messages: ChatMessage[]): Promise<RequestOutcome> {
  const { refs, skippedParts } = extractTexts(messages);
  const tenant = request.principal!.tenantId;
  const { config, ers } = request.server.services;
  let judgements: Judgement[] = [];
  let shadowBanned: boolean;
  if (refs.length > 0) {
    judgements = await judge(request, refs.map((r) => ({ content: r.content, kind: r.kind })), { entity: tenant, contentLimitBytes: config.contentLimitBytes });
    shadowBanned = judgements[0].ers.shadow_banned;
  } else {
    shadowBanned = (await ers.read(tenant)).shadowBanned;
  }
  if (shadowBanned) {
    request.verdictSummary = 'shadow_banned';
    return { kind: 'shadow_banned' };
  }
  const blocked = judgements.filter((j) => j.action === 'block');
  if (blocked.length > 0) {
    return { kind: 'blocked', bastion: { ...summarise(request.id, blocked, 'request'), ...(skippedParts ? { skipped_parts: skippedParts } : {}) } };
  }
  const redactions = judgements.map((j) => (j.action === 'redact' ? j.redacted_content : undefined));
  const redacted = redactions.some((r) => r !== undefined);
  return { kind: 'forward', messages: redacted ? applyRedactions(messages, refs, redactions) : messages, redacted };
}
