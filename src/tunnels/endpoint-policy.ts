import { BlockList, isIP } from 'node:net';

/**
 * Where a tunnel may send (the peer endpoint a tenant's administrator types, or a manifest or reply carries): a
 * tenant must not make the gateway post to the cloud metadata service or into the operator's private network.
 *   - loopback (127.0.0.0/8, ::1, localhost): allowed, plain http too (one host, tests, development);
 *   - link-local and metadata addresses (169.254.0.0/16, fe80::/10, 100.100.100.200, fd00:ec2::254, metadata host
 *     names): never;
 *   - private ranges (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7, …): only those the operator's allow-list
 *     (TUNNEL_PEER_ALLOW) names, by CIDR or host name;
 *   - anything else: https only.
 * Host names are checked again on every send, on each address they resolve to (DNS rebinding).
 */

const METADATA_HOSTS = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal', 'metadata.azure.com', 'metadata.tencentyun.com']);

const NEVER = new BlockList();
NEVER.addSubnet('169.254.0.0', 16, 'ipv4');
NEVER.addAddress('100.100.100.200', 'ipv4');
NEVER.addSubnet('0.0.0.0', 8, 'ipv4');
NEVER.addSubnet('fe80::', 10, 'ipv6');
NEVER.addAddress('fd00:ec2::254', 'ipv6');
NEVER.addAddress('::', 'ipv6');

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

const PRIVATE = new BlockList();
for (const [net, bits] of [['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16], ['100.64.0.0', 10], ['198.18.0.0', 15], ['192.0.0.0', 24], ['224.0.0.0', 3]] as const) PRIVATE.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [['fc00::', 7], ['ff00::', 8], ['64:ff9b::', 96]] as const) PRIVATE.addSubnet(net, bits, 'ipv6');

export interface AllowList {
  hosts: Set<string>;
  blocks: BlockList;
}

/** The operator's TUNNEL_PEER_ALLOW entries: CIDRs or bare addresses, and host names. */
export function allowListOf(entries: readonly string[]): AllowList {
  const hosts = new Set<string>();
  const blocks = new BlockList();
  for (const entry of entries) {
    const [address, bits] = entry.split('/');
    const family = isIP(address);
    if (family === 0) hosts.add(entry.toLowerCase());
    else if (bits === undefined) blocks.addAddress(address, family === 4 ? 'ipv4' : 'ipv6');
    else blocks.addSubnet(address, Number(bits), family === 4 ? 'ipv4' : 'ipv6');
  }
  return { hosts, blocks };
}

/** One address, as connected to (or written literally in the URL): why it is refused, or undefined. */
export function addressRefusal(address: string, allow: AllowList): string | undefined {
  let ip = address.replace(/^\[|\]$/g, '');
  // An IPv4-mapped IPv6 address is the IPv4 address.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) ip = mapped[1];
  const family = isIP(ip);
  if (family === 0) return 'not an IP address';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (NEVER.check(ip, type)) return 'link-local or metadata address';
  if (LOOPBACK.check(ip, type)) return undefined;
  if (PRIVATE.check(ip, type) && !allow.blocks.check(ip, type)) return 'private address not in TUNNEL_PEER_ALLOW';
  return undefined;
}

const isLoopbackName = (host: string) => host === 'localhost' || host.endsWith('.localhost');

/** The endpoint URL as typed: why it is refused, or undefined. Host names are resolved and checked at send time. */
export function endpointRefusal(endpoint: string, allow: AllowList): string | undefined {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'not a URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'not http(s)';
  if (url.username || url.password) return 'credentials in the URL';
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  const literal = isIP(host) !== 0;
  const loopback = literal ? LOOPBACK.check(host.replace(/^::ffff:/i, ''), isIP(host.replace(/^::ffff:/i, '')) === 4 ? 'ipv4' : 'ipv6') : isLoopbackName(host);
  if (url.protocol === 'http:' && !loopback) return 'https is required outside loopback';
  if (literal) return addressRefusal(host, allow);
  if (METADATA_HOSTS.has(host)) return 'metadata host name';
  return undefined;
}

/** A resolved host name may still be allowed by name in the allow-list (a private peer the operator names). */
export function hostAllowed(host: string, allow: AllowList): boolean {
  return allow.hosts.has(host.toLowerCase().replace(/\.$/, ''));
}
