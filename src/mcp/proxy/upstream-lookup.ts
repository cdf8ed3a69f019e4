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

/** An error the upstream client reports as unreachable: nothing was sent. `refusal`: why (none for a name without addresses). */
export function addressRefused(host: string, refusal?: AddressRefusal): NodeJS.ErrnoException & { refusal?: AddressRefusal } {
  const e = new Error(`MCP upstream address refused: ${host}`) as NodeJS.ErrnoException & { refusal?: AddressRefusal };
  e.code = 'EMCPUPSTREAMADDRESS';
  e.refusal = refusal;
  return e;
}

/** What an agent is told when today's address policy refuses a registered server (no byte was sent to it). */
export const ADDRESS_REFUSED_REASON = "the MCP server's address is loopback or private, which this gateway does not connect to (the operator allows it with BASTION_MCP_PRIVATE_UPSTREAMS=true)";

/**
 * Whether a failed send was refused only because the address is loopback or private — an address written in the URL
 * or one its host name resolved to — so that BASTION_MCP_PRIVATE_UPSTREAMS=true would allow it (never a link-local or
 * metadata address): what the agent is told instead of "could not be reached".
 */
export function refusedAsPrivate(err: unknown): boolean {
  return refusalError(err)?.refusal === 'private';
}

/** The address policy's refusal in a failed send (the error itself, or what undici wrapped it in). */
function refusalError(err: unknown): { refusal?: AddressRefusal } | undefined {
  for (let e = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) if ((e as { code?: unknown }).code === 'EMCPUPSTREAMADDRESS') return e as { refusal?: AddressRefusal };
  return undefined;
}

/** An undici `connect.lookup` that refuses a host name when any of its addresses is refused (fails closed). */
export function guardedLookup(allowPrivate: boolean, resolve: Resolve = systemResolve) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    resolve(hostname, (err, addresses) => {
      if (err) return callback(err, []);
      if (addresses.length === 0) return callback(addressRefused(hostname), []);
      const refusals = addresses.map((a) => resolvedAddressRefusal(a.address, allowPrivate));
      const refusal = refusals.includes('link_local') ? 'link_local' : refusals.includes('private') ? 'private' : undefined;
      if (refusal) return callback(addressRefused(hostname, refusal), []);
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
