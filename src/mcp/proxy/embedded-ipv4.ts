import ipaddr from 'ipaddr.js';

/**
 * The IPv4 addresses an IPv6 address carries, so that an upstream written or resolved as IPv6 is judged by where the
 * packets really go: a NAT64 gateway, a 6to4 relay or a dual-stack socket turns these forms into IPv4 traffic.
 *   - IPv4-mapped ::ffff:a.b.c.d and IPv4-translated ::ffff:0:a.b.c.d (RFC 4291, RFC 6145): the last 32 bits;
 *   - IPv4-compatible ::a.b.c.d (RFC 4291, deprecated but still parsed): the last 32 bits;
 *   - NAT64 well-known prefix 64:ff9b::/96 (RFC 6052): the last 32 bits; the local-use prefix 64:ff9b:1::/48
 *     (RFC 8215), whose length the operator chooses: every position RFC 6052 allows for a prefix of /48 or longer;
 *   - 6to4 2002::/16 (RFC 3056): bits 16–47;
 *   - Teredo 2001::/32 (RFC 4380): the server (bits 32–63) and the client (the last 32 bits, inverted).
 * Anything else carries none. An address that is not IPv6 gives [].
 */
export function embeddedIpv4(address: string): string[] {
  let bytes: number[];
  try {
    bytes = ipaddr.IPv6.parse(address.replace(/^\[|\]$/g, '')).toByteArray();
  } catch {
    return [];
  }
  const at = (...i: number[]) => i.map((k) => bytes[k]).join('.');
  const zero = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
  const last = at(12, 13, 14, 15);
  if (zero(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return [last]; // mapped
  if (zero(0, 12)) return zero(12, 15) && bytes[15] <= 1 ? [] : [last]; // compatible (:: and ::1 are themselves)
  if (zero(0, 8) && bytes[8] === 0xff && bytes[9] === 0xff && zero(10, 12)) return [last]; // translated
  const prefix = bytes.slice(0, 6).map((b) => b.toString(16).padStart(2, '0')).join('');
  if (prefix === '0064ff9b0000' && zero(6, 12)) return [last];
  if (prefix === '0064ff9b0001') return [at(6, 7, 9, 10), at(7, 9, 10, 11), at(9, 10, 11, 12), last]; // /48, /56, /64, /96
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return [at(2, 3, 4, 5)];
  if (bytes[0] === 0x20 && bytes[1] === 0x01 && bytes[2] === 0 && bytes[3] === 0) return [at(4, 5, 6, 7), bytes.slice(12).map((b) => b ^ 0xff).join('.')];
  return [];
}
