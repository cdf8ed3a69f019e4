import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Dispatcher } from 'undici';
import { relayResponseHeaders, forwardRequestHeaders } from './headers.js';
import { traceHeaders, traceUpstreamMark } from '../../telemetry/tracing.js';
import { ClientGone } from './client-gone.js';

/** The upstream credential: Bastion's own when it holds one (UPSTREAM_API_KEY), else the app's Authorization. */
export function upstreamAuthorization(request: FastifyRequest): string | undefined {
  const key = request.server.services.config.upstreamApiKey;
  return key ? `Bearer ${key}` : request.headers.authorization;
}

export function upstreamHeaders(request: FastifyRequest, extra: Record<string, string> = {}): Record<string, string> {
  return { ...forwardRequestHeaders(request.headers, upstreamAuthorization(request)), ...extra, ...traceHeaders(request) };
}

/** An abort handle tied to the client connection: a client that disconnects aborts the upstream request. */
export function abortOnClientClose(request: FastifyRequest, reply: FastifyReply): ClientGone {
  const gone = new ClientGone();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) gone.abort();
  });
  request.raw.on('aborted', () => gone.abort());
  return gone;
}

/** Copies status and headers of an upstream response onto the reply (body is the caller's business). */
export function relayHead(reply: FastifyReply, res: Dispatcher.ResponseData): void {
  reply.code(res.statusCode);
  for (const [name, value] of Object.entries(relayResponseHeaders(res.headers))) reply.header(name, value);
}

/** Marks the upstream's share of the elapsed time, so x-bastion-overhead-ms reports Bastion's own. */
export function markUpstream(request: FastifyRequest, startedAt: number): void {
  request.upstreamMs = (request.upstreamMs ?? 0) + (performance.now() - startedAt);
  traceUpstreamMark(request);
}
