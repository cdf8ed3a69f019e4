import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { guardTexts } from '../chat/request-guard.js';
import type { BastionInfo } from '../chat/verdict-summary.js';
import { RequestValidationError } from '../../errors.js';
import { forwardGuarded } from '../upstream/forward-guarded.js';
import { extractInput } from '../responses/input-items.js';
import { guardResponse } from '../responses/output-guard.js';
import { relayResponseStream } from '../responses/stream-relay.js';
import { blockedResponse, decoyResponse, responseStream } from '../responses/synthetic.js';
import { attachResponsesFlows, rememberResponse } from '../flows/response-state.js';
import { setQuarantineHeader, withQuarantine } from '../chat/quarantine-report.js';

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

      // The flow state: this input as the client sent it (a quarantined result's values still count as untrusted), on
      // top of the stored state of the Response it continues.
      await attachResponsesFlows(request, body);
      return forwardGuarded(request, reply, {
        path: '/v1/responses',
        body: redacted ? copy : body,
        headers: (r) => {
          if (outcome.uninspected) r.header(UNINSPECTED_HEADER, `${outcome.uninspected.count}; ${outcome.uninspected.types}`);
          setQuarantineHeader(r, outcome.quarantine);
        },
        stream: (upstreamBody, abort, allowDomains) => relayResponseStream(request, upstreamBody, abort, allowDomains),
        is: isResponse,
        expected: 'a Response object',
        async guard(response, allowDomains) {
          const guarded = await guardResponse(request, response, allowDomains);
          await rememberResponse(request, guarded);
          const bastion = withQuarantine(request.id, (guarded as { bastion?: BastionInfo }).bastion, outcome.quarantine);
          if (bastion) (guarded as { bastion?: BastionInfo }).bastion = bastion;
          return guarded;
        },
      });
    },
  );
}
