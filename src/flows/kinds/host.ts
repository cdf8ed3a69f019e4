import ipaddr from 'ipaddr.js';

/**
 * Hosts in one notation before they are compared: lower case, IDNA (`bücher.example` and `xn--bcher-kva.example` are
 * one host), no trailing dot, no `www.`; IPv4 literals in any notation the WHATWG URL parser accepts (decimal
 * `3232235777`, hex `0xC0A80101`, octal `0300.0250.1.1`, short `127.1`) as dotted quads, and an IPv4 address inside
 * IPv6 (`[::ffff:7f00:1]`) as the IPv4 address it is. Undefined when it is no host.
 */

const MAX_HOST = 253;

export function normaliseHost(raw: string): string | undefined {
  let h = raw.trim().toLowerCase();
  if (!h || h.length > MAX_HOST + 2) return undefined;
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h.includes(':')) return ipv6(h);
  let parsed: string;
  try {
    // The URL parser applies IDNA (domainToASCII) and reads IPv4 literals in every notation it accepts.
    parsed = new URL(`http://${h}/`).hostname;
  } catch {
    return undefined;
  }
  if (parsed.startsWith('[')) return ipv6(parsed.slice(1, -1));
  const out = parsed.replace(/\.$/, '').replace(/^www\./, '');
  return out && out.length <= MAX_HOST ? out : undefined;
}

function ipv6(h: string): string | undefined {
  if (!ipaddr.IPv6.isValid(h)) return undefined;
  const a = ipaddr.IPv6.parse(h);
  return a.isIPv4MappedAddress() ? a.toIPv4Address().toString() : a.toString();
}

/** A host and every parent domain of at least two labels: `a.b.example` → a.b.example, b.example. IPs are themselves only. */
export function hostAndParents(host: string): string[] {
  if (/^[\d.]+$/.test(host) || host.includes(':')) return [host];
  const labels = host.split('.');
  const out: string[] = [];
  for (let i = 0; i <= labels.length - 2 && out.length < 8; i++) out.push(labels.slice(i).join('.'));
  return out.length ? out : [host];
}

/** Host of a URL (or a `//host` or bare host), normalised; undefined when it does not parse. */
export function urlHost(url: string): string | undefined {
  try {
    return normaliseHost(new URL(url).hostname);
  } catch {
    return undefined;
  }
}

// Bare domain names in the app's own words ("You work for Acme (acme.example)"): letters in the last label.
const BARE_DOMAIN = /(?<![\p{L}\p{N}_@.-])((?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.){1,8}[\p{L}]{2,24})(?![\p{L}\p{N}_-]|\.[\p{L}\p{N}])/gu;

/** Domain names written without a scheme or an address, normalised (bounded). */
export function bareDomains(text: string, max = 64): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(BARE_DOMAIN)) {
    const h = normaliseHost(m[1]);
    if (h && !out.includes(h)) out.push(h);
    if (out.length >= max) break;
  }
  return out;
}
