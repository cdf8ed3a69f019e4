import { BlockList, isIP } from 'node:net';
import { addressRefusal, allowListOf } from '../../tunnels/endpoint-policy.js';
import { embeddedIpv4 } from './embedded-ipv4.js';

/**
 * Which addresses the MCP proxy may send a tenant's traffic (and the server's credential) to, for an address written
 * in the URL and for each address a host name resolves to. The tunnels' policy decides what is never reachable
 * (link-local, metadata addresses); loopback and private ranges only when the operator allows them
 * (BASTION_MCP_PRIVATE_UPSTREAMS). An IPv6 address that carries an IPv4 address (NAT64, 6to4, Teredo, IPv4-mapped or
 * -compatible: embedded-ipv4.ts) is judged by the IPv4 address(es) it carries, where the traffic really goes.
 */
const privateNets = new BlockList();
for (const [net, bits] of [['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16], ['127.0.0.0', 8], ['100.64.0.0', 10], ['0.0.0.0', 8]] as const) privateNets.addSubnet(net, bits, 'ipv4');
privateNets.addSubnet('fc00::', 7, 'ipv6');
privateNets.addAddress('::1', 'ipv6');
privateNets.addAddress('::', 'ipv6');

const linkLocal = new BlockList();
linkLocal.addSubnet('169.254.0.0', 16, 'ipv4');
linkLocal.addSubnet('fe80::', 10, 'ipv6');
linkLocal.addAddress('fd00:ec2::254', 'ipv6');

const NO_ALLOW_LIST = allowListOf([]);
export type AddressRefusal = 'link_local' | 'private';

function oneAddress(ip: string, allowPrivate: boolean): AddressRefusal | undefined {
  const type = isIP(ip) === 4 ? 'ipv4' : 'ipv6';
  const why = addressRefusal(ip, NO_ALLOW_LIST);
  if ((why !== undefined && !why.startsWith('private')) || linkLocal.check(ip, type)) return 'link_local';
  if (allowPrivate) return undefined;
  return why !== undefined || privateNets.check(ip, type) ? 'private' : undefined;
}

/** Why this IP address (v4 or v6, brackets allowed) is refused as an upstream, or undefined; not an address: private. */
export function upstreamAddressRefusal(address: string, allowPrivate: boolean): AddressRefusal | undefined {
  const ip = address.replace(/^\[|\]$/g, '');
  if (isIP(ip) === 0) return 'private';
  const carried = embeddedIpv4(ip);
  const verdicts = (carried.length > 0 ? carried : [ip]).map((a) => oneAddress(a, allowPrivate));
  return verdicts.includes('link_local') ? 'link_local' : verdicts.includes('private') ? 'private' : undefined;
}
