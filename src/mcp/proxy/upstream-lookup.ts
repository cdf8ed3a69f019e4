import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { addressRefusal, allowListOf } from '../../tunnels/endpoint-policy.js';
import { isPrivateAddress } from './upstream-url.js';

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
export type Resolve = (hostname: string, callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

const systemResolve: Resolve = (hostname, callback) => dnsLookup(hostname, { all: true }, callback);
const NO_ALLOW_LIST = allowListOf([]);

/**
 * Where the MCP proxy may connect, checked on the addresses a host name resolves to at connection time (a name that
 * passed the registration check may later resolve elsewhere: DNS rebinding). The tunnels' policy decides what is never
 * reachable (link-local, metadata addresses); private and loopback addresses only with BASTION_MCP_PRIVATE_UPSTREAMS.
 */
export function resolvedAddressRefusal(address: string, allowPrivate: boolean): 'link_local' | 'private' | undefined {
  const why = addressRefusal(address, NO_ALLOW_LIST);
  if (why !== undefined && !why.startsWith('private')) return 'link_local';
  if (allowPrivate) return undefined;
  if (why !== undefined) return 'private';
  const ip = address.replace(/^\[|\]$/g, '').replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');
  return isPrivateAddress(ip, isIP(ip) === 4 ? 'ipv4' : 'ipv6') ? 'private' : undefined;
}

/** An undici `connect.lookup` that refuses a host name when any of its addresses is refused (fails closed). */
export function guardedLookup(allowPrivate: boolean, resolve: Resolve = systemResolve) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    resolve(hostname, (err, addresses) => {
      if (err) return callback(err, []);
      if (addresses.length === 0 || addresses.some((a) => resolvedAddressRefusal(a.address, allowPrivate) !== undefined)) {
        const e = new Error(`MCP upstream address refused: ${hostname}`) as NodeJS.ErrnoException;
        e.code = 'EMCPUPSTREAMADDRESS';
        return callback(e, []);
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
