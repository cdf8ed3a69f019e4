import { BlockList, isIP } from 'node:net';
import { isMetadataUrl } from '../../inspect/effects/metadata.js';

/**
 * Where a tenant may point an upstream MCP server. The gateway sends the server's credential and its own traffic
 * there, so a tenant must not reach what only the gateway can: link-local addresses and cloud metadata endpoints are
 * always refused; loopback and private addresses only when the operator allows them (BASTION_MCP_PRIVATE_UPSTREAMS).
 * A `stdio://` URL registers a server run by `bastion mcp wrap` (judged through the gateway, never connected to).
 * The check reads the URL as written; the addresses a name resolves to are checked when connecting (upstream-lookup.ts).
 */
const linkLocal = new BlockList();
linkLocal.addSubnet('169.254.0.0', 16, 'ipv4');
linkLocal.addSubnet('fe80::', 10, 'ipv6');
linkLocal.addAddress('fd00:ec2::254', 'ipv6');

const privateNets = new BlockList();
for (const [net, bits] of [['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16], ['127.0.0.0', 8], ['100.64.0.0', 10], ['0.0.0.0', 8]] as const) privateNets.addSubnet(net, bits, 'ipv4');
privateNets.addSubnet('fc00::', 7, 'ipv6');
privateNets.addAddress('::1', 'ipv6');
privateNets.addAddress('::', 'ipv6');

/** Loopback and private ranges: reachable only when the operator allows private upstreams. */
export const isPrivateAddress = (ip: string, type: 'ipv4' | 'ipv6'): boolean => privateNets.check(ip, type);

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
  const family = isIP(host);
  if (family !== 0) {
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (linkLocal.check(host, type)) return 'link_local';
    if (!allowPrivate && privateNets.check(host, type)) return 'private';
  } else if (!allowPrivate && (host === 'localhost' || host.endsWith('.localhost') || !host.includes('.'))) return 'private';
  return undefined;
}
