import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { upstreamAddressRefusal, type AddressRefusal } from './address-policy.js';

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
export type Resolve = (hostname: string, callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

const systemResolve: Resolve = (hostname, callback) => dnsLookup(hostname, { all: true }, callback);

/**
 * Where the MCP proxy may connect, checked on the addresses a host name resolves to at connection time (a name that
 * passed the registration check may later resolve elsewhere: DNS rebinding), and on an address written in the URL
 * (registered before the policy changed, or under other settings). The policy is address-policy.ts.
 */
export function resolvedAddressRefusal(address: string, allowPrivate: boolean): AddressRefusal | undefined {
  return upstreamAddressRefusal(address, allowPrivate);
}

/** An error the upstream client reports as unreachable: nothing was sent. */
export function addressRefused(host: string): NodeJS.ErrnoException {
  const e = new Error(`MCP upstream address refused: ${host}`) as NodeJS.ErrnoException;
  e.code = 'EMCPUPSTREAMADDRESS';
  return e;
}

/** What an agent is told when today's address policy refuses a registered server (no byte was sent to it). */
export const ADDRESS_REFUSED_REASON = "the MCP server's address is loopback or private, which this gateway does not connect to (the operator allows it with BASTION_MCP_PRIVATE_UPSTREAMS=true)";

/** Whether a failed send was refused by the address policy (the error itself, or what undici wrapped it in). */
export function wasAddressRefused(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) if ((e as { code?: unknown }).code === 'EMCPUPSTREAMADDRESS') return true;
  return false;
}

/** An undici `connect.lookup` that refuses a host name when any of its addresses is refused (fails closed). */
export function guardedLookup(allowPrivate: boolean, resolve: Resolve = systemResolve) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    resolve(hostname, (err, addresses) => {
      if (err) return callback(err, []);
      if (addresses.length === 0 || addresses.some((a) => resolvedAddressRefusal(a.address, allowPrivate) !== undefined)) return callback(addressRefused(hostname), []);
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
