import { isIP } from 'node:net';
import { isMetadataUrl } from '../../inspect/effects/metadata.js';
import { upstreamAddressRefusal } from './address-policy.js';

/**
 * Where a tenant may point an upstream MCP server. The gateway sends the server's credential and its own traffic
 * there, so a tenant must not reach what only the gateway can: link-local addresses and cloud metadata endpoints are
 * always refused; loopback and private addresses only when the operator allows them (BASTION_MCP_PRIVATE_UPSTREAMS).
 * A `stdio://` URL registers a server run by `bastion mcp wrap` (judged through the gateway, never connected to).
 * The check reads the URL as written (an address by address-policy.ts); the addresses a name resolves to, and an
 * address written in the URL, are checked again when connecting (upstream-lookup.ts).
 */
export type UrlRefusal = 'scheme' | 'credentials_in_url' | 'link_local' | 'private';

export function checkUpstreamUrl(raw: string, allowPrivate: boolean): UrlRefusal | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'scheme';
  }
  // stdio://…: a local server the agent's machine runs under `bastion mcp wrap`; the gateway never connects to it.
  if (url.protocol === 'stdio:') return url.username || url.password ? 'credentials_in_url' : undefined;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'scheme';
  if (url.username || url.password) return 'credentials_in_url';
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (isMetadataUrl(raw)) return 'link_local';
  if (isIP(host) !== 0) return upstreamAddressRefusal(host, allowPrivate);
  else if (!allowPrivate && (host === 'localhost' || host.endsWith('.localhost') || !host.includes('.'))) return 'private';
  return undefined;
}
