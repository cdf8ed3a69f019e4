import type { FastifyInstance } from 'fastify';
import { abortOnClientClose, markUpstream, relayHead, upstreamHeaders } from '../upstream/forward.js';

/** GET /v1/models: passed through transparently (status, headers, body streamed). */
export async function modelsRoute(app: FastifyInstance): Promise<void> {
  const { config, upstream } = app.services;
  app.get('/v1/models', { config: { security: 'apiKey', rateLimited: true, bearerKey: true }, schema: { summary: 'Upstream model list, passed through' } }, async (request, reply) => {
    const abort = abortOnClientClose(request, reply);
    const started = performance.now();
    const res = await upstream.request({ url: `${config.upstreamBaseUrl}/v1/models`, method: 'GET', headers: upstreamHeaders(request), signal: abort.signal });
    markUpstream(request, started);
    relayHead(reply, res);
    return reply.send(res.body);
  });
}
