import ipaddr from 'ipaddr.js';
import effects from '../../config/action-effects.json' with { type: 'json' };
import providers from '../../config/public-providers.json' with { type: 'json' };
import { isExternalHost } from '../inspect/effects/secret-refs.js';
import { addresses } from './kinds/email.js';
import { bareDomains, hostAndParents, normaliseHost, urlHost } from './kinds/host.js';
import { globMatch } from './labels.js';
import type { Hasher } from './values.js';

/**
 * The trust boundary, stated once (docs/FLOWS.md "The trust boundary"). Inside it are
 * - the organisation's own hosts: the tenant policy's `own_domains` (and their sub-domains), `internal_hosts` (globs
 *   such as `*.corp.example`, or CIDR ranges such as `10.0.0.0/8`) and `allow_domains`; hosts the app names in its
 *   own words (system and developer messages, Responses instructions); names that cannot leave the network
 *   (loopback, single-label service names, private address ranges, the internal suffixes of config/action-effects.json);
 * - the user's own records: results of private tools (src/flows/labels.ts), whose values count as chosen.
 * Public mail providers, link shorteners and paste sites (config/public-providers.json) are never own by inference:
 * only the policy can make one of them own. A sink is a call that sends data outside; moving data inside is not one.
 */

export interface Boundary {
  /** The policy's own domains and allow_domains, normalised: each covers its sub-domains. */
  ownDomains: readonly string[];
  /** The policy's internal host patterns: globs over the normalised host, or CIDR ranges. */
  internalHosts: readonly string[];
}

export const NO_BOUNDARY: Boundary = { ownDomains: [], internalHosts: [] };

const PUBLIC: ReadonlySet<string> = new Set([...providers.mail, ...providers.shorteners, ...providers.paste].map((h) => h.toLowerCase()));
const INTERNAL_SUFFIXES: readonly string[] = effects.internalSuffixes;
const INTERNAL_RANGES = new Set(['private', 'loopback', 'uniqueLocal']);

/** The boundary the policy declares (own domains, allow_domains, internal hosts), normalised. */
export function policyBoundary(ownDomains: readonly string[], allowDomains: readonly string[], internalHosts: readonly string[]): Boundary {
  const domains = [...ownDomains, ...allowDomains].map((d) => normaliseHost(d.replace(/^\*\./, ''))).filter((d): d is string => d !== undefined);
  return { ownDomains: [...new Set(domains)], internalHosts: internalHosts.map((h) => h.trim().toLowerCase()).filter(Boolean) };
}

/** A public mail provider, link shortener or paste site (or a sub-domain of one): anyone can have an address there. */
export function isPublicHost(host: string): boolean {
  return hostAndParents(host).some((h) => PUBLIC.has(h));
}

/** Hosts the app names in its own words that may be its own: addresses' hosts, URL hosts and bare domains, not public ones. */
export function appHosts(text: string): string[] {
  const hosts = new Set<string>();
  for (const a of addresses(text)) hosts.add(a.host);
  for (const m of text.matchAll(/\bhttps?:\/\/[^\s"'<>`)\]}]{1,2048}/gi)) {
    const h = urlHost(m[0]);
    if (h) hosts.add(h);
  }
  for (const d of bareDomains(text)) hosts.add(d);
  return [...hosts].filter((h) => !isPublicHost(h) && isExternalHost(h)).slice(0, 256);
}

/** Inside by the policy or by its nature: the policy's own domains and internal hosts, and names that cannot leave the network. */
export function insideByPolicy(boundary: Boundary, host: string): boolean {
  if (!isExternalHost(host) || INTERNAL_SUFFIXES.some((s) => host.endsWith(s))) return true;
  if (ipaddr.isValid(host) && INTERNAL_RANGES.has(ipaddr.process(host).range())) return true;
  return declaredInside(boundary, host);
}

/** Inside because the policy says so: its own domains (with sub-domains) and internal host patterns or ranges. */
export function declaredInside(boundary: Boundary, host: string): boolean {
  const parents = hostAndParents(host);
  if (boundary.ownDomains.some((d) => parents.includes(d))) return true;
  return boundary.internalHosts.some((pattern) => (pattern.includes('/') ? inRange(host, pattern) : globMatch(pattern, host)));
}

function inRange(host: string, cidr: string): boolean {
  try {
    if (!ipaddr.isValid(host)) return false;
    const [range, bits] = ipaddr.parseCIDR(cidr);
    const address = ipaddr.process(host);
    return address.kind() === range.kind() && address.match([range, bits] as never);
  } catch {
    return false;
  }
}

/** The host is the organisation's own: by the policy, or named by the app (never a public provider by that). */
export function ownHost(boundary: Boundary, appOwn: ReadonlySet<string>, hash: Hasher, host: string): boolean {
  if (insideByPolicy(boundary, host)) return true;
  return !isPublicHost(host) && hostAndParents(host).some((h) => appOwn.has(hash(h)));
}
