import { normaliseHost } from './host.js';

/**
 * E-mail addresses: the whole address lower-cased (mail providers treat the local part case-insensitively), the
 * host normalised as a host (IDNA). Dots and plus-tags stay as written: `a.b+x@host` is not `ab@host`, since which
 * of them a provider folds together is its own rule, and an attacker can register the variant a provider does not fold.
 */

// The local part is taken whole (an atomic group: lookahead + back-reference), so a long run without `@` is read once.
export const EMAIL = /(?=([a-z0-9._%+-]{1,64}))\1@((?:[\p{L}\p{N}-]{1,63}\.){1,8}[\p{L}\p{N}-]{2,63})/giu;

export interface Address {
  address: string;
  host: string;
}

export function normaliseAddress(local: string, host: string): Address | undefined {
  const h = normaliseHost(host);
  if (!h) return undefined;
  return { address: `${local.toLowerCase()}@${h}`, host: h };
}

export function addresses(text: string): Address[] {
  const out: Address[] = [];
  for (const m of text.matchAll(EMAIL)) {
    const a = normaliseAddress(m[1], m[2]);
    if (a) out.push(a);
  }
  return out;
}
