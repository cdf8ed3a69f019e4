import type { IncomingHttpHeaders } from 'node:http';

// RFC 9110 §7.6.1 hop-by-hop fields, plus ones undici or Node set themselves.
const HOP_BY_HOP = new Set([
  'connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer',
  'transfer-encoding', 'upgrade', 'host', 'content-length', 'expect',
]);
// Bastion's own credentials and its flow-session link never travel upstream; upstream credentials never travel back.
const REQUEST_DROP = new Set(['x-api-key', 'x-admin-key', 'cookie', 'accept-encoding', 'bastion-flow-session']);
const RESPONSE_DROP = new Set(['set-cookie', 'authorization', 'api-key', 'x-api-key', 'content-encoding']);

/**
 * Headers forwarded upstream: the client's own (OpenAI-Organization, OpenAI-Project, User-Agent, Accept …) minus
 * hop-by-hop and Bastion credentials. Authorization is the caller's unless Bastion holds the upstream key.
 * accept-encoding is dropped so that Bastion can read (and inspect) the upstream body.
 */
export function forwardRequestHeaders(incoming: IncomingHttpHeaders, authorization: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || HOP_BY_HOP.has(name) || REQUEST_DROP.has(name) || name === 'authorization') continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  if (authorization) out.authorization = authorization;
  return out;
}

/** Upstream response headers relayed to the client, minus hop-by-hop and credential fields. */
export function relayResponseHeaders(upstream: Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(upstream)) {
    if (value === undefined || HOP_BY_HOP.has(name) || RESPONSE_DROP.has(name)) continue;
    out[name] = value;
  }
  return out;
}
