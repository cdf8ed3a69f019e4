import type { FastifyReply, FastifyRequest } from 'fastify';
import { decodePaymentSignatureHeader } from '@x402/core/http';
import { BastionError, RequestValidationError, type ErrorName } from '../errors.js';
import { authenticateApiKey } from '../http/hooks/api-key.js';
import { consumeMonthlyQuota, limitPerKey, MINUTE_POLICY } from '../http/hooks/rate-limit.js';
import { CATALOGUE, type CatalogueItem } from '../payments/catalogue.js';
import { isL402Scheme, l402ReplayExpiry, parseL402Authorization, verifyL402 } from '../payments/l402.js';
import { SATS } from '../payments/lightning-prices.js';
import { nonceExpiry, parseX402Payload, toolResource, verifyX402 } from '../payments/x402.js';
import { chargeX402, consumeL402 } from '../storage/payments.js';
import { checkArguments, TOOL_NAMES, type Caller, type ToolName } from './tools.js';

export type Admission = { admitted: Caller } | { unfunded: { tool: string; item: CatalogueItem; reason: ErrorName } };

interface Lightning {
  offered: boolean;
  rootKey: () => Promise<Buffer>;
}

interface ToolCallMessage {
  name: unknown;
  arguments: unknown;
  /** A JSON-RPC request has an id; without one it is a notification, which is never answered. */
  hasId: boolean;
}

/** The `tools/call` messages in a JSON-RPC message or batch (anything else is free: initialize, tools/list, ping). */
function toolCalls(body: unknown): ToolCallMessage[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages.flatMap((m) => {
    if (!m || typeof m !== 'object' || (m as { method?: unknown }).method !== 'tools/call') return [];
    const params = ((m as { params?: unknown }).params ?? {}) as { name: unknown; arguments: unknown };
    const id = (m as { id?: unknown }).id;
    // JSON-RPC ids are strings or numbers; `"id": null` is no id MCP answers.
    return [{ name: params.name, arguments: params.arguments, hasId: typeof id === 'string' || typeof id === 'number' }];
  });
}

const invalid = (loc: string, msg: string, type = 'value_error') => new RequestValidationError([{ loc: ['header', loc], msg, type }]);

/**
 * Decides who pays for a POST /mcp before the MCP server sees it. One credential per request: an X-API-Key (the key's
 * tenant, metered and counted like /filter), a PAYMENT-SIGNATURE (x402, charged to the signing agent) or an
 * `Authorization: L402` credential (spent once). Without any, discovery (initialize, tools/list) is free and a paid
 * tools/call is 402. Arguments are checked before any charge, so a call that cannot run is never paid for; a tools/call
 * sent as a notification (no id) is refused (422) for the same reason.
 */
export async function admit(request: FastifyRequest, reply: FastifyReply, lightning: Lightning): Promise<Admission> {
  const calls = toolCalls(request.body);
  if (calls.length > 1) throw new RequestValidationError([{ loc: ['body'], msg: 'Send one tools/call per request: each is priced and paid on its own', type: 'value_error.one_call' }]);
  const x402 = request.headers['payment-signature'];
  const authorization = request.headers.authorization;
  const l402 = typeof authorization === 'string' && isL402Scheme(authorization) ? authorization : undefined;
  const key = request.headers['x-api-key'];
  if ([x402, l402, key].filter((c) => c !== undefined).length > 1) {
    throw new RequestValidationError([{ loc: ['header'], msg: 'Send one credential: X-API-Key, PAYMENT-SIGNATURE or Authorization: L402', type: 'value_error.credentials' }]);
  }

  // Who asks first (401 and 429 before 422, as on every keyed route), then what: a call that cannot run costs nothing.
  if (key !== undefined) {
    await authenticateApiKey(request, { allowAnonymous: false });
    await limitPerKey(request, reply);
  } else {
    await limitPerIp(request);
  }
  const call = calls[0];
  // A notification is never answered, so the SDK accepts it (202) and runs nothing: charged, it would buy nothing.
  if (call && !call.hasId) throw new RequestValidationError([{ loc: ['body', 'id'], msg: 'tools/call is a JSON-RPC request: send it with an id (a notification is never answered, so it is never run or charged)', type: 'missing' }]);
  // An unknown tool costs nothing: the MCP server answers it with its own error.
  const tool = call && typeof call.name === 'string' && TOOL_NAMES.includes(call.name as ToolName) ? (call.name as ToolName) : undefined;
  if (tool) checkCall(request, tool, call.arguments);
  if (key !== undefined) {
    if (tool) await consumeMonthlyQuota(request, 1);
    return { admitted: { kind: 'key', tenantId: request.principal!.tenantId } };
  }
  if (!tool) return { admitted: { kind: 'discovery' } };
  const item = CATALOGUE.get(`tool:${tool}`)!;
  const unfunded = (reason: ErrorName): Admission => ({ unfunded: { tool, item, reason } });

  if (typeof x402 === 'string') {
    let decoded: unknown;
    try {
      if (x402.length > 8192) throw new Error('too long');
      decoded = decodePaymentSignatureHeader(x402);
    } catch {
      throw invalid('payment-signature', 'must be base64 of a JSON object', 'value_error.base64_json');
    }
    const payload = parseX402Payload(decoded);
    if ('invalid' in payload) throw invalid('payment-signature', `payload field ${payload.invalid} is missing or malformed`, 'value_error.x402_payload');
    const now = Date.now();
    const refused = await verifyX402(payload, { resource: toolResource(tool), price: item.amount }, now);
    if (refused) return unfunded(refused);
    const outcome = await chargeX402(request.server.services.storage, { did: payload.agent_id, nonce: payload.nonce, nonceExpiresAt: nonceExpiry(payload), tool, item }, now);
    if ('refused' in outcome) return unfunded(outcome.refused);
    request.log.info({ event: 'mcp_paid', scheme: 'x402', tool, tenant: outcome.charged.tenantId, agent: outcome.charged.agentId }, 'paid MCP call');
    return { admitted: { kind: 'x402', tenantId: outcome.charged.tenantId, agentId: outcome.charged.agentId } };
  }

  if (l402 !== undefined) {
    if (!lightning.offered) return unfunded('L402_NOT_OFFERED');
    const credential = parseL402Authorization(l402);
    if (!credential) throw invalid('authorization', 'must be L402 <base64 macaroon>:<64 hex digit preimage>', 'value_error.l402');
    const rootKey = await lightning.rootKey().catch((cause: unknown) => {
      throw new BastionError('SIGNING_KEY_UNAVAILABLE', { cause });
    });
    const verified = verifyL402(rootKey, credential, { tool }, Date.now());
    if ('refused' in verified) return unfunded(verified.refused);
    const spent = await consumeL402(request.server.services.storage, { paymentHash: verified.grant.paymentHash, expiresAt: l402ReplayExpiry(verified.grant), tool, amountSat: SATS.get(item.item) ?? 0 });
    if (spent !== 'consumed') return unfunded(spent);
    request.log.info({ event: 'mcp_paid', scheme: 'l402', tool }, 'paid MCP call');
    return { admitted: { kind: 'l402' } };
  }
  return unfunded('PAYMENT_REQUIRED');
}

/** The tool's arguments fit its schema and the content fits BASTION_CONTENT_LIMIT (422 / 413), before any charge. */
function checkCall(request: FastifyRequest, tool: ToolName, args: unknown): void {
  const checked = checkArguments(tool, args);
  if (!checked.ok) throw new RequestValidationError(checked.issues.map((i) => ({ loc: ['body', 'params', 'arguments', ...i.path], msg: i.message, type: 'value_error' })));
  const limit = request.server.services.config.contentLimitBytes;
  if (Buffer.byteLength(checked.content, 'utf8') > limit) throw new BastionError('CONTENT_TOO_LARGE', { message: `Content exceeds the inspection limit of ${limit} bytes.`, extra: { limit_bytes: limit } });
}

/** Calls without an API key share a sliding window per client IP (BASTION_MCP_IP_RATE): discovery and paid alike. */
async function limitPerIp(request: FastifyRequest): Promise<void> {
  const quota = request.server.services.config.mcpIpRatePerMinute;
  const result = await request.server.services.window.consume(`mcp-ip:${request.ip}`, quota, 60_000);
  request.rateState = [{ name: MINUTE_POLICY, quota, windowSeconds: 60, consumed: { remaining: result.remaining, resetMs: result.resetMs, denied: !result.allowed } }];
  if (!result.allowed) throw new BastionError('RATE_LIMITED');
}
