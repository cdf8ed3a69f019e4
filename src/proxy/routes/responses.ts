import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { guardTexts } from '../chat/request-guard.js';
import { BastionError, RequestValidationError } from '../../errors.js';
import { tenantPolicies } from '../../policy/tenant-policies.js';
import { readBounded } from '../upstream/read-body.js';
import { abortOnClientClose, markUpstream, relayHead, upstreamHeaders } from '../upstream/forward.js';
import { extractInput } from '../responses/input-items.js';
import { guardResponse } from '../responses/output-guard.js';
import { relayResponseStream } from '../responses/stream-relay.js';
import { blockedResponse, decoyResponse, responseStream } from '../responses/synthetic.js';

// Free-form like the API (new item types and parameters appear often); what Bastion reads is constrained and bounded.
const ResponsesBody = Type.Object(
  {
    model: Type.Optional(Type.String({ maxLength: 256 })),
    stream: Type.Optional(Type.Boolean()),
    input: Type.Optional(Type.Union([Type.String(), Type.Array(Type.Object({}, { additionalProperties: true }), { maxItems: 4096 })])),
    instructions: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    previous_response_id: Type.Optional(Type.Union([Type.String({ maxLength: 256 }), Type.Null()])),
    store: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: true },
);

/** Texts and uninspectable parts one request may carry (as chat's messages). */
const MAX_TEXTS = 1024;
const UNINSPECTED_HEADER = 'x-bastion-uninspected-parts';

function isResponse(value: unknown): value is Record<string, unknown> & { output: unknown[] } {
  return typeof value === 'object' && value !== null && Array.isArray((value as { output?: unknown }).output);
}

/**
 * POST /v1/responses (the OpenAI Responses API) with both guard points: input items at [A] (see
 * responses/input-items.ts), output items at [B] (responses/output-guard.ts, responses/stream-guard.ts).
 * previous_response_id, store, tools and every other parameter pass through untouched.
 */
export async function responsesRoute(app: FastifyInstance): Promise<void> {
  const { config, upstream } = app.services;

  app.post<{ Body: Static<typeof ResponsesBody> }>(
    '/v1/responses',
    {
      config: { security: 'apiKey', rateLimited: true, bearerKey: true },
      schema: {
        summary: 'OpenAI Responses API, inspected both ways. A blocked request is HTTP 200 with a Response whose status is "incomplete" (reason content_filter).',
        body: ResponsesBody,
      },
    },
    async (request, reply) => {
      const body = request.body as Record<string, unknown>;
      const ctx = { model: typeof body.model === 'string' ? body.model : 'unknown', instructions: body.instructions, previous_response_id: body.previous_response_id };
      const stream = body.stream === true;
      const copy = structuredClone(body);
      const input = extractInput(copy, MAX_TEXTS);
      if (input.count > MAX_TEXTS) {
        throw new RequestValidationError([{ loc: ['body', 'input'], msg: `At most ${MAX_TEXTS} input texts and content parts in one request`, type: 'too_long' }]);
      }
      const outcome = await guardTexts(request, input.texts, input.uninspected);
      if (outcome.uninspected) {
        reply.header(UNINSPECTED_HEADER, `${outcome.uninspected.count}; ${outcome.uninspected.types}`);
        request.verdictSummary = `${request.verdictSummary ?? ''} uninspected:${outcome.uninspected.count}`.trim();
      }
      if (outcome.kind === 'shadow_banned') {
        const decoy = decoyResponse(ctx);
        return stream ? reply.type('text/event-stream').send(responseStream(decoy)) : decoy;
      }
      if (outcome.kind === 'blocked') {
        const blocked = blockedResponse(ctx, outcome.bastion);
        return stream ? reply.type('text/event-stream').send(responseStream(blocked)) : blocked;
      }
      let redacted = false;
      outcome.redactions.forEach((text, i) => {
        if (text === undefined) return;
        input.texts[i].write(text);
        redacted = true;
      });

      const { allowDomains } = await tenantPolicies(app.services).get(request.principal?.tenantId);
      const abort = abortOnClientClose(request, reply);
      const started = performance.now();
      const res = await upstream.request({
        url: `${config.upstreamBaseUrl}/v1/responses`,
        method: 'POST',
        headers: upstreamHeaders(request, { 'content-type': 'application/json' }),
        body: JSON.stringify(redacted ? copy : body),
        signal: abort.signal,
      });
      markUpstream(request, started);
      relayHead(reply, res);
      if (outcome.uninspected) reply.header(UNINSPECTED_HEADER, `${outcome.uninspected.count}; ${outcome.uninspected.types}`);
      const type = String(res.headers['content-type'] ?? '').toLowerCase();
      if (res.statusCode >= 400) return reply.send(res.body); // provider errors pass through verbatim
      if (type.includes('text/event-stream')) return reply.send(relayResponseStream(request, res.body, abort, allowDomains));
      const raw = await readBounded(res.body, config.upstreamResponseLimitBytes);
      markUpstream(request, started);
      let response: unknown;
      try {
        response = JSON.parse(raw.toString('utf8'));
      } catch {
        response = undefined;
      }
      // A success body Bastion cannot read as a Response could carry calls it never saw: fail closed.
      if (!isResponse(response)) {
        throw new BastionError('UPSTREAM_UNREACHABLE', { message: 'The upstream answered with a body that is not a Response object.' });
      }
      return reply.send(await guardResponse(request, response, allowDomains));
    },
  );
}
