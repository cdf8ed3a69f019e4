import { isIP } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import type { Config } from '../../config/schema.js';
import { embeddedIpv4 } from './embedded-ipv4.js';

/**
 * Whether an upstream URL names one of this gateway's own listeners: relaying to itself, a server's requests would
 * come back to the proxy and be relayed again. Refused at registration; a loop through a name or a load balancer in
 * front of the gateway, which cannot be seen here, is ended by the relay-hop count (relay-hops.ts).
 */
const ports = new WeakMap<object, number[]>();

/** The ports the listeners really bound (BASTION_PORT=0 binds any free port), noted once they listen. */
export function noteOwnListeners(services: object, bound: number[]): void {
  ports.set(services, bound);
}

const UNSPECIFIED_OR_LOOPBACK = /^(127\.\d+\.\d+\.\d+|0\.0\.0\.0|::|::1)$/;

function isThisMachine(host: string, config: Config): boolean {
  if (host === 'localhost' || host.endsWith('.localhost') || host === hostname().toLowerCase()) return true;
  if ([config.host, config.adminHost].some((h) => h?.toLowerCase() === host)) return true;
  if (isIP(host) === 0) return false;
  const local = new Set(Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address.toLowerCase())));
  return [host, ...embeddedIpv4(host)].some((ip) => UNSPECIFIED_OR_LOOPBACK.test(ip) || local.has(ip));
}

export function pointsAtGateway(raw: string, services: { config: Config }): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const own = new Set([...(ports.get(services) ?? []), services.config.port, services.config.adminPort].filter((p) => p > 0));
  return own.has(port) && isThisMachine(url.hostname.replace(/^\[|\]$/g, '').toLowerCase(), services.config);
}
