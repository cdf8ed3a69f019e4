import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { abortOnClientClose, markUpstream, relayHead, upstreamHeaders } from '../upstream/forward.js';

const ModelParams = Type.Object({ model: Type.String({ minLength: 1, maxLength: 100 }) });
// Moderation input is classified by the upstream, never acted on by a model: forwarded as sent, bounded like any body.
const ModerationsBody = Type.Object(
  {
    model: Type.Optional(Type.String({ maxLength: 256 })),
    input: Type.Union([Type.String(), Type.Array(Type.Object({}, { additionalProperties: true }), { maxItems: 4096 }), Type.Array(Type.String(), { maxItems: 4096 })]),
  },
  { additionalProperties: true },
);

/** GET /v1/models/{model} and POST /v1/moderations: passed through (status, headers and body streamed back). */
export async function passthroughRoutes(app: FastifyInstance): Promise<void> {
  const { config, upstream } = app.services;
  const cfg = { security: 'apiKey' as const, rateLimited: true, bearerKey: true };

  app.get<{ Params: Static<typeof ModelParams> }>(
    '/v1/models/:model',
    { config: cfg, schema: { summary: 'One upstream model, passed through', params: ModelParams } },
    async (request, reply) => {
      const abort = abortOnClientClose(request, reply);
      const started = performance.now();
      const url = `${config.upstreamBaseUrl}/v1/models/${encodeURIComponent(request.params.model)}`;
      const res = await upstream.request({ url, method: 'GET', headers: upstreamHeaders(request), signal: abort.signal });
      markUpstream(request, started);
      relayHead(reply, res);
      return reply.send(res.body);
    },
  );

  app.post<{ Body: Static<typeof ModerationsBody> }>(
    '/v1/moderations',
    { config: cfg, schema: { summary: "The upstream's moderation classifier, passed through (the input is classified, not acted on)", body: ModerationsBody } },
    async (request, reply) => {
      const abort = abortOnClientClose(request, reply);
      const started = performance.now();
      const res = await upstream.request({
        url: `${config.upstreamBaseUrl}/v1/moderations`,
        method: 'POST',
        headers: upstreamHeaders(request, { 'content-type': 'application/json' }),
        body: JSON.stringify(request.body),
        signal: abort.signal,
      });
      markUpstream(request, started);
      relayHead(reply, res);
      return reply.send(res.body);
    },
  );
}
