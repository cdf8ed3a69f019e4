import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { guardRequest } from '../chat/request-guard.js';
import { guardCompletion } from '../chat/response-guard.js';
import { relayStream } from '../chat/stream-relay.js';
import { decoyCompletion, decoyStream, refusalCompletion, refusalStream } from '../chat/synthetic-responses.js';
import { readBounded } from '../upstream/read-body.js';
import { abortOnClientClose, markUpstream, relayHead, upstreamHeaders } from '../upstream/forward.js';

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

/** POST /v1/chat/completions with both tool-call guard points (SPEC §1, §4.3). */
export async function chatRoute(app: FastifyInstance): Promise<void> {
  const { config, upstream } = app.services;

  app.post<{ Body: Static<typeof ChatBody> }>(
    '/v1/chat/completions',
    {
      config: { security: 'apiKey', rateLimited: true, bearerKey: true },
      schema: { summary: 'OpenAI-compatible chat completions, inspected both ways. A blocked request is HTTP 200 with finish_reason "content_filter".', body: ChatBody },
    },
    async (request, reply) => {
      const body = request.body;
      const model = body.model ?? 'unknown';
      const stream = body.stream === true;
      const outcome = await guardRequest(request, body.messages);
      if (outcome.kind === 'shadow_banned') {
        return stream ? reply.type('text/event-stream').send(decoyStream(model)) : decoyCompletion(model);
      }
      if (outcome.kind === 'blocked') {
        return stream ? reply.type('text/event-stream').send(refusalStream(model, outcome.bastion)) : refusalCompletion(model, outcome.bastion);
      }

      const abort = abortOnClientClose(request, reply);
      const started = performance.now();
      const res = await upstream.request({
        url: `${config.upstreamBaseUrl}/v1/chat/completions`,
        method: 'POST',
        headers: upstreamHeaders(request, { 'content-type': 'application/json' }),
        body: JSON.stringify(outcome.redacted ? { ...body, messages: outcome.messages } : body),
        signal: abort.signal,
      });
      markUpstream(request, started);
      relayHead(reply, res);
      const type = String(res.headers['content-type'] ?? '');
      if (res.statusCode >= 400) return reply.send(res.body); // provider errors pass through verbatim
      if (type.includes('text/event-stream')) return reply.send(relayStream(request, res.body, abort));
      const raw = await readBounded(res.body, config.upstreamResponseLimitBytes);
      markUpstream(request, started);
      let completion: Record<string, unknown>;
      try {
        completion = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
      } catch {
        return reply.send(raw); // not JSON: nothing Bastion can inspect for tool calls; relayed as is
      }
      return reply.send(await guardCompletion(request, completion));
    },
  );
}
