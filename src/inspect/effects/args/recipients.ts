import config from '../../../../config/action-effects.json' with { type: 'json' };
import { hostOf, isExternalHost } from '../secret-refs.js';
import { words, type Leaf } from './leaves.js';

/**
 * Who a call sends to, and whether that is inside the organisation the call acts for. The account's own domains
 * come from account-like fields (mailbox, user, owner, from, sender …) of the same arguments; a recipient on one
 * of them (or a sub- or parent domain), or on an internal suffix, is inside. A free-mail domain is never inside.
 */

const EMAIL = /[a-z0-9._%+-]{1,64}@([a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){1,8})/gi;
const FREE = new Set(config.freeMail);
const SUFFIXES = config.internalSuffixes;

export function emailDomains(value: string): string[] {
  const out: string[] = [];
  for (const m of value.slice(0, 4096).matchAll(EMAIL)) out.push(m[1].toLowerCase());
  return out;
}

/** Domains of the account the call acts for. A bare domain in a `domain`/`organization` field counts too. */
export function accountDomains(leaves: Leaf[]): Set<string> {
  const out = new Set<string>();
  for (const l of leaves) {
    if (typeof l.value !== 'string' || !l.path.some((k) => words.account.has(k))) continue;
    if (l.path.some((k) => words.forward.has(k) || words.recipient.has(k))) continue;
    for (const d of emailDomains(l.value)) out.add(d);
    if (/^[a-z0-9-]{1,63}(\.[a-z0-9-]{1,63}){1,8}$/i.test(l.value.trim()) && /domain|organization/.test(l.key)) out.add(l.value.trim().toLowerCase());
  }
  for (const d of out) if (FREE.has(d)) out.delete(d);
  return out;
}

export type Placement = 'inside' | 'outside' | 'unknown';

export function placeDomain(domain: string, own: ReadonlySet<string>): Placement {
  const d = domain.toLowerCase();
  if (FREE.has(d)) return 'outside';
  if (SUFFIXES.some((s) => d.endsWith(s))) return 'inside';
  for (const o of own) if (d === o || d.endsWith(`.${o}`) || o.endsWith(`.${d}`)) return 'inside';
  return own.size > 0 ? 'outside' : 'unknown';
}

/** A URL destination: loopback, single-label and internal-suffix hosts are inside. */
export function placeUrl(url: string, own: ReadonlySet<string>): Placement | undefined {
  // A bucket URL names no owner: whose bucket it is cannot be told from the call.
  if (/^(s3|gs|az|abfss?|wasbs?):\/\//i.test(url)) return 'unknown';
  const host = hostOf(url);
  if (!host) return undefined;
  if (!isExternalHost(host)) return 'inside';
  return placeDomain(host, own);
}

/** The worst placement of a set: any outside recipient makes the call outside. */
export function worst(placements: Placement[]): Placement | undefined {
  if (placements.includes('outside')) return 'outside';
  if (placements.includes('unknown')) return 'unknown';
  return placements.length > 0 ? 'inside' : undefined;
}
