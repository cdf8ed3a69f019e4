import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { guardTexts, type TextsOutcome } from '../chat/request-guard.js';
import { RequestValidationError } from '../../errors.js';
import { forwardGuarded } from '../upstream/forward-guarded.js';
import { attachFlows } from '../flows/context.js';
import { readMessages } from '../../flows/conversation.js';
import { anthropicErrorEvent } from '../../http/anthropic-errors.js';
import { extractMessagesInput } from '../anthropic/request-blocks.js';
import { guardMessage } from '../anthropic/message-guard.js';
import { relayMessageStream } from '../anthropic/stream-relay.js';
import { anthropicUpstreamHeaders } from '../anthropic/upstream-headers.js';
import { blockedMessage, decoyMessage, messageStream, VERDICT_HEADER, verdictHeader } from '../anthropic/synthetic.js';
import { setQuarantineHeader, withQuarantine } from '../chat/quarantine-report.js';
import type { BastionInfo } from '../chat/verdict-summary.js';

// Free-form like the API (new block types and parameters appear often); what Bastion reads is constrained and bounded.
const Block = Type.Object({ type: Type.String({ maxLength: 64 }) }, { additionalProperties: true });
const Content = Type.Union([Type.String(), Type.Array(Block, { maxItems: 4096 })]);
const MessagesBody = Type.Object(
  {
    model: Type.String({ minLength: 1, maxLength: 256 }),
    stream: Type.Optional(Type.Boolean()),
    system: Type.Optional(Content),
    messages: Type.Array(Type.Object({ role: Type.String({ maxLength: 32 }), content: Content }, { additionalProperties: true }), { minItems: 1, maxItems: 4096 }),
  },
  { additionalProperties: true },
);
type Body = Static<typeof MessagesBody>;

/** Texts and uninspectable blocks one request may carry (as chat's messages). */
const MAX_TEXTS = 1024;
const UNINSPECTED_HEADER = 'x-bastion-uninspected-parts';

const isMessage = (value: unknown): value is Record<string, unknown> & { content: unknown[] } =>
  typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'message' && Array.isArray((value as { content?: unknown }).content);
const isTokenCount = (value: unknown): value is { input_tokens: number } => typeof (value as { input_tokens?: unknown } | null)?.input_tokens === 'number';

/** Point [A] on a Messages body: judged texts, redactions written into a copy. */
async function inspectRequest(request: FastifyRequest, reply: FastifyReply, body: Body): Promise<{ outcome: TextsOutcome; forward: unknown }> {
  const copy = structuredClone(body) as Record<string, unknown>;
  const input = extractMessagesInput(copy, MAX_TEXTS);
  if (input.count > MAX_TEXTS) {
    throw new RequestValidationError([{ loc: ['body', 'messages'], msg: `At most ${MAX_TEXTS} texts and content blocks in one request`, type: 'too_long' }]);
  }
  const outcome = await guardTexts(request, input.texts, input.uninspected);
  // Never a silent pass: blocks Bastion could not read are announced on every answer (count and types).
  if (outcome.uninspected) {
    reply.header(UNINSPECTED_HEADER, `${outcome.uninspected.count}; ${outcome.uninspected.types}`);
    request.verdictSummary = `${request.verdictSummary ?? ''} uninspected:${outcome.uninspected.count}`.trim();
  }
  let redacted = false;
  if (outcome.kind === 'forward') {
    outcome.redactions.forEach((text, i) => {
      if (text === undefined) return;
      input.texts[i].write(text);
      redacted = true;
    });
  }
  return { outcome, forward: redacted ? copy : body };
}

/** Headers that describe the request's own inspection: parts not read, tool results quarantined. */
function uninspectedHeader(outcome: TextsOutcome): (reply: FastifyReply) => void {
  const u = outcome.uninspected;
  return (reply) => {
    if (u) reply.header(UNINSPECTED_HEADER, `${u.count}; ${u.types}`);
    if (outcome.kind === 'forward') setQuarantineHeader(reply, outcome.quarantine);
  };
}

/**
 * POST /v1/messages and /v1/messages/count_tokens (the Anthropic Messages API) with both guard points: content blocks
 * at [A] (anthropic/request-blocks.ts), tool_use blocks and text at [B] (anthropic/message-guard.ts,
 * anthropic/stream-guard.ts). Forwarded to ANTHROPIC_UPSTREAM_BASE_URL with anthropic-version and anthropic-beta as sent.
 */
export async function messagesRoute(app: FastifyInstance): Promise<void> {
  const config = { security: 'apiKey' as const, rateLimited: true, anthropicKey: true };

  app.post<{ Body: Body }>(
    '/v1/messages',
    {
      config,
      schema: {
        summary: 'Anthropic Messages API, inspected both ways. A blocked request is HTTP 200 with an assistant message whose stop_reason is "refusal", the verdict in `bastion` and x-bastion-verdict.',
        body: MessagesBody,
      },
    },
    async (request, reply) => {
      const body = request.body;
      const stream = body.stream === true;
      const { outcome, forward } = await inspectRequest(request, reply, body);
      if (outcome.kind === 'shadow_banned') {
        const decoy = decoyMessage(body.model);
        return stream ? reply.type('text/event-stream').send(messageStream(decoy)) : decoy;
      }
      if (outcome.kind === 'blocked') {
        reply.header(VERDICT_HEADER, verdictHeader(outcome.bastion));
        const blocked = blockedMessage(body.model, outcome.bastion);
        return stream ? reply.type('text/event-stream').send(messageStream(blocked)) : blocked;
      }
      const headers = uninspectedHeader(outcome);
      // Read from the blocks as the client sent them: a quarantined result's values still count as untrusted.
      await attachFlows(request, 'messages', (flows) => readMessages(flows.state, flows.policy, body.system, body.messages));
      return forwardGuarded(request, reply, {
        path: '/v1/messages',
        baseUrl: request.server.services.config.anthropicUpstreamBaseUrl,
        upstreamHeaders: anthropicUpstreamHeaders(request),
        body: forward,
        headers,
        stream: (upstreamBody, abort, allowDomains) => relayMessageStream(request, upstreamBody, abort, allowDomains),
        is: isMessage,
        expected: 'a message',
        async guard(message, allowDomains) {
          const answered = await guardMessage(request, message, allowDomains);
          const bastion = withQuarantine(request.id, answered, outcome.quarantine);
          if (bastion) {
            (message as { bastion?: BastionInfo }).bastion = bastion;
            reply.header(VERDICT_HEADER, verdictHeader(bastion));
          }
          return message;
        },
      });
    },
  );

  app.post<{ Body: Body }>(
    '/v1/messages/count_tokens',
    {
      config,
      schema: {
        summary: 'Anthropic token counting. The body is inspected as for /v1/messages (secrets redacted before it leaves); a blocked request is HTTP 200 with input_tokens 0 and the verdict in `bastion` and x-bastion-verdict.',
        body: Type.Omit(MessagesBody, ['stream']),
      },
    },
    async (request, reply) => {
      const { outcome, forward } = await inspectRequest(request, reply, request.body);
      if (outcome.kind === 'shadow_banned') return { input_tokens: Math.ceil(JSON.stringify(request.body.messages).length / 4) };
      if (outcome.kind === 'blocked') {
        reply.header(VERDICT_HEADER, verdictHeader(outcome.bastion));
        return { input_tokens: 0, bastion: outcome.bastion };
      }
      return forwardGuarded(request, reply, {
        path: '/v1/messages/count_tokens',
        baseUrl: request.server.services.config.anthropicUpstreamBaseUrl,
        upstreamHeaders: anthropicUpstreamHeaders(request),
        body: forward,
        headers: uninspectedHeader(outcome),
        // A count is never streamed: a stream here is not what the route guards and ends with an error event.
        stream(upstreamBody) {
          upstreamBody.destroy();
          const out = new PassThrough();
          out.end(anthropicErrorEvent('api_error', 'The upstream answered with a stream, not a token count.'));
          return out;
        },
        is: isTokenCount,
        expected: 'a token count',
        guard: (count) => count,
      });
    },
  );
}
