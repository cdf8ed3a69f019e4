import type { FastifyRequest } from 'fastify';
import { forwardRequestHeaders } from '../upstream/headers.js';
import { traceHeaders } from '../../telemetry/tracing.js';

/**
 * Headers for the Anthropic upstream: the client's own (anthropic-version, anthropic-beta, User-Agent …) minus hop-by-hop
 * fields and Bastion's key header. When Bastion holds the Anthropic credential (ANTHROPIC_UPSTREAM_API_KEY) it is sent
 * as x-api-key and the client's x-api-key / Authorization (which carried its Bastion key) go nowhere; otherwise they are
 * the app's own Anthropic credential and pass through as sent.
 */
export function anthropicUpstreamHeaders(request: FastifyRequest): Record<string, string> {
  const held = request.server.services.config.anthropicUpstreamApiKey;
  const out = forwardRequestHeaders(request.headers, held ? undefined : request.headers.authorization);
  delete out['x-bastion-key'];
  const appKey = request.headers['x-api-key'];
  if (held) out['x-api-key'] = held;
  else if (typeof appKey === 'string') out['x-api-key'] = appKey;
  out['content-type'] = 'application/json';
  return { ...out, ...traceHeaders(request) };
}
