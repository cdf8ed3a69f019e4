import { fullFormats } from 'ajv-formats/dist/formats.js';
import type { IssuerConfig } from './issuers.js';

const EMAIL = fullFormats.email as RegExp;

/** The verified claims; the mapping reads hd, tid, email and email_verified. */
export type IdentityClaims = Readonly<Record<string, unknown>>;

/**
 * Which tenant a verified user belongs to, by the issuer's configured mappings, in the order configured: the hosted
 * domain (`hd`), the directory id (`tid`), or the domain of an e-mail the issuer says it verified. An e-mail the
 * issuer did not verify never maps (an account could otherwise claim any address). Undefined: unmapped (403).
 */
export function mapTenant(issuer: IssuerConfig, claims: IdentityClaims): string | undefined {
  const hd = typeof claims.hd === 'string' ? claims.hd.toLowerCase() : undefined;
  const tid = typeof claims.tid === 'string' ? claims.tid : undefined;
  const emailDomain = claims.email_verified === true ? domainOf(claims.email) : undefined;
  for (const m of issuer.tenants) {
    if (m.hd !== undefined && m.hd === hd) return m.tenant;
    if (m.tid !== undefined && m.tid === tid) return m.tenant;
    if (m.email_domain !== undefined && m.email_domain === emailDomain) return m.tenant;
  }
  return undefined;
}

/**
 * The domain of an e-mail claim read as an address (RFC 5322 dot-atom local part, one `@`, a host name), never by
 * suffix: `a@evil.com@beta.com` or `"a@evil.com"@beta.com` are not addresses a mapping may trust, so they map nowhere.
 */
function domainOf(email: unknown): string | undefined {
  if (typeof email !== 'string' || email.length > 254 || !EMAIL.test(email)) return undefined;
  return email.slice(email.indexOf('@') + 1).toLowerCase();
}
