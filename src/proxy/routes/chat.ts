import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { guardRequest } from '../chat/request-guard.js';
import { guardCompletion } from '../chat/response-guard.js';
import type { BastionInfo } from '../chat/verdict-summary.js';
import { relayStream } from '../chat/stream-relay.js';
import { decoyCompletion, decoyStream, refusalCompletion, refusalStream } from '../chat/synthetic-responses.js';
import { RequestValidationError, type ValidationIssue } from '../../errors.js';
import { forwardGuarded } from '../upstream/forward-guarded.js';
import { attachFlows } from '../flows/context.js';
import { readChat } from '../../flows/conversation.js';
import { setQuarantineHeader, withQuarantine } from '../chat/quarantine-report.js';

// Free-form (OpenAI adds parameters often); only what Bastion relies on is constrained, and bounded.
const ChatBody = Type.Object(
  {
    model: Type.Optional(Type.String({ maxLength: 256 })),
    stream: Type.Optional(Type.Boolean()),
    messages: Type.Array(
      Type.Object({ role: Type.String({ maxLength: 32 }) }, { additionalProperties: true }),
      { minItems: 1, maxItems: 4096 },
    ),
  },
  { additionalProperties: true },
);

const MAX_TEXTS = 1024;
const UNINSPECTED_HEADER = 'x-bastion-uninspected-parts';

/**
 * The deprecated `functions` API returns `function_call` instead of `tool_calls`; Bastion inspects tool calls only, so
 * requests that use it are refused (422) rather than answered with uninspected calls. The number of inspected texts is
 * bounded too.
 */
function refuseUninspectable(body: Record<string, unknown> & { messages: { function_call?: unknown; content?: unknown }[] }): void {
  const issues: ValidationIssue[] = [];
  for (const field of ['functions', 'function_call']) {
    if (body[field] !== undefined) issues.push({ loc: ['body', field], msg: 'The deprecated functions API is not supported: use tools', type: 'value_error' });
  }
  body.messages.forEach((m, i) => {
    if (m.function_call !== undefined) issues.push({ loc: ['body', 'messages', i, 'function_call'], msg: 'Use tool_calls instead of the deprecated function_call', type: 'value_error' });
  });
  // Streamed logprobs carry the answer's tokens in the same chunk as its text, before the text guard has judged the
  // word they belong to: a credential the guard holds back would reach the client through them.
  if (body.stream === true && (body.logprobs === true || body.top_logprobs != null)) {
    issues.push({ loc: ['body', 'logprobs'], msg: 'logprobs cannot be inspected in a stream: use stream=false to receive them', type: 'value_error' });
  }
  const texts = body.messages.reduce((n, m) => n + (Array.isArray(m.content) ? m.content.length : 1), 0);
  if (texts > MAX_TEXTS) issues.push({ loc: ['body', 'messages'], msg: `At most ${MAX_TEXTS} message texts and content parts in one request`, type: 'too_long' });
  if (issues.length > 0) throw new RequestValidationError(issues);
}

function isCompletion(value: unknown): value is { choices: object[] } {
  const choices = (value as { choices?: unknown } | null)?.choices;
  return typeof value === 'object' && value !== null && Array.isArray(choices) && choices.every((c) => typeof c === 'object' && c !== null);
}

/** POST /v1/chat/completions with both tool-call guard points (SPEC §1, §4.3). */
export async function chatRoute(app: FastifyInstance): Promise<void> {

  app.post<{ Body: Static<typeof ChatBody> }>(
    '/v1/chat/completions',
    {
      config: { security: 'apiKey', rateLimited: true, bearerKey: true },
      schema: { summary: 'OpenAI-compatible chat completions, inspected both ways. A blocked request is HTTP 200 with finish_reason "content_filter".', body: ChatBody },
    },
    async (request, reply) => {
      const body = request.body;
      refuseUninspectable(body as unknown as Parameters<typeof refuseUninspectable>[0]);
      const model = body.model ?? 'unknown';
      const stream = body.stream === true;
      const outcome = await guardRequest(request, body.messages);
      // Never a silent pass: parts Bastion could not read are announced on every answer (count and types).
      if (outcome.uninspected) {
        reply.header(UNINSPECTED_HEADER, `${outcome.uninspected.count}; ${outcome.uninspected.types}`);
        request.verdictSummary = `${request.verdictSummary ?? ''} uninspected:${outcome.uninspected.count}`.trim();
      }
      if (outcome.kind === 'shadow_banned') {
        return stream ? reply.type('text/event-stream').send(decoyStream(model)) : decoyCompletion(model);
      }
      if (outcome.kind === 'blocked') {
        return stream ? reply.type('text/event-stream').send(refusalStream(model, outcome.bastion)) : refusalCompletion(model, outcome.bastion);
      }

      // What the conversation has shown the model (tool results, named values), read from the messages as the client
      // sent them: a quarantined result's values still count as untrusted. Point [B] decides tool calls by flow.
      await attachFlows(request, 'chat', (flows) => readChat(flows.state, flows.policy, body.messages));
      // The tenant's allow-list (inside forwardGuarded): links to its own hosts in the answer are not exfiltration.
      return forwardGuarded(request, reply, {
        path: '/v1/chat/completions',
        body: outcome.redacted ? { ...body, messages: outcome.messages } : body,
        headers: (r) => {
          if (outcome.uninspected) r.header(UNINSPECTED_HEADER, `${outcome.uninspected.count}; ${outcome.uninspected.types}`);
          setQuarantineHeader(r, outcome.quarantine);
        },
        stream: (upstreamBody, abort, allowDomains) => relayStream(request, upstreamBody, abort, allowDomains),
        is: isCompletion,
        expected: 'a chat completion',
        async guard(completion, allowDomains) {
          const guarded = (await guardCompletion(request, completion as Parameters<typeof guardCompletion>[1], allowDomains)) as { bastion?: BastionInfo };
          const bastion = withQuarantine(request.id, guarded.bastion, outcome.quarantine);
          if (bastion) guarded.bastion = bastion;
          return guarded;
        },
      });
    },
  );
}
