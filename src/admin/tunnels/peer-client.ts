import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent, request } from 'undici';
import { BastionError } from '../../errors.js';
import type { Services } from '../../services.js';
import { addressRefusal, allowListOf, endpointRefusal, hostAllowed, type AllowList } from '../../tunnels/endpoint-policy.js';

/**
 * Outgoing posts to a peer gateway. Each has one overall deadline (TUNNEL_PEER_TIMEOUT_MS: an AbortSignal over the
 * whole exchange, besides undici's headers and body timeouts, which only bound the gap between two chunks: a peer
 * dripping a byte at a time would otherwise hold a post for ever). The endpoint is checked as typed, and every
 * address its host name resolves to is checked again when connecting (src/tunnels/endpoint-policy.ts), so a name
 * that later resolves to a metadata or private address (DNS rebinding) is refused too.
 */

const MAX_ANSWER_BYTES = 16 * 1024;

interface Client {
  allow: AllowList;
  agent: Agent;
}
const clients = new WeakMap<Services, Client>();

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

function clientOf(services: Services): Client {
  const existing = clients.get(services);
  if (existing) return existing;
  const allow = allowListOf(services.config.tunnelPeerAllow);
  // Called by net.connect for host names (never for IP literals, which endpointRefusal checked).
  const lookup = (hostname: string, options: { all?: boolean }, callback: LookupCallback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, []);
      const named = hostAllowed(hostname, allow);
      const refused = addresses.find((a) => {
        const why = addressRefusal(a.address, allow);
        return why !== undefined && !(named && why.startsWith('private'));
      });
      if (refused || addresses.length === 0) {
        const e = new Error(`peer address refused: ${hostname}`) as NodeJS.ErrnoException;
        e.code = 'ETUNNELENDPOINT';
        return callback(e, []);
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
  const agent = new Agent({ connect: { lookup: lookup as never, timeout: services.config.tunnelPeerTimeoutMs } });
  const client = { allow, agent };
  clients.set(services, client);
  return client;
}

/** Why an endpoint a tenant's administrator typed (or a manifest or reply carries) may not be used; 400 if so. */
export function assertPeerEndpoint(services: Services, endpoint: string): void {
  const why = endpointRefusal(endpoint, clientOf(services).allow);
  if (why) throw new BastionError('TUNNEL_ENDPOINT_REFUSED', { extra: { reason: why } });
}

/** POSTs JSON to `{endpoint}/{path}` under one overall deadline; the status and, on 200, the parsed answer. */
export async function postToPeer(services: Services, endpoint: string, path: string, body: unknown, deadlineMs = services.config.tunnelPeerTimeoutMs): Promise<{ status: number; answer?: unknown }> {
  const client = clientOf(services);
  assertPeerEndpoint(services, endpoint);
  const url = new URL(path, endpoint.endsWith('/') ? endpoint : `${endpoint}/`);
  const signal = AbortSignal.timeout(deadlineMs);
  const res = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    dispatcher: client.agent,
    // One connection per post: posts are rare, and a kept-alive socket the peer closed meanwhile would fail the post.
    reset: true,
    headersTimeout: deadlineMs,
    bodyTimeout: deadlineMs,
    signal,
  });
  let text = '';
  for await (const chunk of res.body) {
    text += chunk.toString();
    if (text.length > MAX_ANSWER_BYTES) {
      res.body.destroy();
      break;
    }
  }
  if (res.statusCode !== 200) return { status: res.statusCode };
  try {
    return { status: 200, answer: JSON.parse(text) as unknown };
  } catch {
    return { status: 502 };
  }
}
