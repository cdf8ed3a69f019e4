import type { PassThrough } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Dispatcher } from 'undici';
import { BastionError } from '../../errors.js';
import { tenantPolicies } from '../../policy/tenant-policies.js';
import { abortOnClientClose, markUpstream, relayHead, upstreamHeaders } from './forward.js';
import { readBounded } from '../../upstream/read-body.js';
import type { UpstreamAbort } from './client-gone.js';

export interface GuardedForward<T> {
  /** Upstream path, e.g. `/v1/chat/completions`. */
  path: string;
  /** Upstream origin; default UPSTREAM_BASE_URL (the OpenAI-compatible provider). */
  baseUrl?: string;
  /** Request headers for the upstream; default the client's own with the OpenAI-style credential (upstreamHeaders). */
  upstreamHeaders?: Record<string, string>;
  /** The request body as it goes upstream (redactions applied). */
  body: unknown;
  /** Sets headers that describe the request's own inspection (uninspected parts) once the upstream head is relayed. */
  headers?: (reply: FastifyReply) => void;
  /** Point [B] for a streamed answer. */
  stream(upstream: Dispatcher.ResponseData['body'], abort: UpstreamAbort, allowDomains: readonly string[]): PassThrough;
  /** Is a parsed success body the object this route guards? Anything else could carry output Bastion never saw. */
  is(value: unknown): value is T;
  /** What the body should have been, for the 502 message. */
  expected: string;
  /** Point [B] for a whole answer. */
  guard(value: T, allowDomains: readonly string[]): unknown;
}

/**
 * The upstream half shared by the guarded /v1 routes (chat, Responses, legacy completions, Anthropic Messages): forwards the inspected
 * request, passes provider errors through verbatim, relays a stream through its guard, and reads a whole answer
 * within UPSTREAM_RESPONSE_LIMIT and guards it. A success body that is not what the route guards fails closed (502).
 */
export async function forwardGuarded<T>(request: FastifyRequest, reply: FastifyReply, route: GuardedForward<T>): Promise<unknown> {
  const { config, upstream } = request.server.services;
  const { allowDomains } = await tenantPolicies(request.server.services).get(request.principal?.tenantId);
  const abort = abortOnClientClose(request, reply);
  const started = performance.now();
  const url = `${route.baseUrl ?? config.upstreamBaseUrl}${route.path}`;
  const res = await upstream.request({
    url,
    method: 'POST',
    headers: route.upstreamHeaders ?? upstreamHeaders(request, { 'content-type': 'application/json' }),
    body: JSON.stringify(route.body),
    signal: abort.signal,
  });
  markUpstream(request, started);
  relayHead(reply, res);
  route.headers?.(reply);
  if (res.statusCode >= 400) return reply.send(res.body); // provider errors pass through verbatim
  if (String(res.headers['content-type'] ?? '').toLowerCase().includes('text/event-stream')) return reply.send(route.stream(res.body, abort, allowDomains));
  // The body's own read time, on top of the wait for the head marked above (counted once each).
  const bodyStarted = performance.now();
  const raw = await readBounded(res.body, config.upstreamResponseLimitBytes, new URL(url).origin);
  markUpstream(request, bodyStarted);
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch {
    value = undefined;
  }
  if (!route.is(value)) throw new BastionError('UPSTREAM_UNREACHABLE', { message: `The upstream answered with a body that is not ${route.expected}.` });
  return reply.send(await route.guard(value, allowDomains));
}
