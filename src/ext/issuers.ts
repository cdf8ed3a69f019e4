/**
 * The identity providers whose ID tokens /ext/* accepts (BASTION_OIDC_ISSUERS, JSON), and how their users map onto
 * tenants. Pure: parsed once at start, bounded, and refused whole when any entry is malformed (fail closed).
 *
 * [{"issuer": "https://accounts.google.com", "client_id": "123.apps.googleusercontent.com",
 *   "tenants": [{"hd": "acme.com", "tenant": "acme"}, {"email_domain": "acme.co.uk", "tenant": "acme"}]},
 *  {"issuer": "https://login.microsoftonline.com/<tid>/v2.0", "client_id": "<app id>",
 *   "tenants": [{"tid": "<tid>", "tenant": "beta"}]}]
 */
export interface TenantMapping {
  /** Google Workspace hosted domain claim. */
  hd?: string;
  /** Microsoft Entra ID directory (tenant) id claim. */
  tid?: string;
  /** Domain of a verified `email` claim (`email_verified: true` required). */
  email_domain?: string;
  tenant: string;
}

export interface IssuerConfig {
  issuer: string;
  client_id: string;
  tenants: TenantMapping[];
}

const MAX_ISSUERS = 8;
const MAX_MAPPINGS = 256;
const TENANT_ID = /^[A-Za-z0-9_.-]{1,64}$/;
const DOMAIN = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** https, or http to a loopback host (a local IdP, tests); never anything else. */
export function trustedUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
  } catch {
    return false;
  }
}

const ALLOWED = 'a JSON array (≤ 8) of {"issuer": https URL, "client_id", "tenants": [{"hd"|"tid"|"email_domain": value, "tenant"}] (≤ 256)}';

export function parseIssuers(raw: string): IssuerConfig[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error(ALLOWED);
  }
  if (!Array.isArray(parsed) || parsed.length > MAX_ISSUERS) throw new Error(ALLOWED);
  const issuers = parsed.map((entry) => parseIssuer(entry));
  if (new Set(issuers.map((i) => i.issuer)).size !== issuers.length) throw new Error(`${ALLOWED}; each issuer once`);
  return issuers;
}

function parseIssuer(entry: unknown): IssuerConfig {
  const e = entry as Record<string, unknown>;
  const ok =
    typeof e === 'object' && e !== null &&
    typeof e.issuer === 'string' && e.issuer.length <= 512 && trustedUrl(e.issuer) &&
    typeof e.client_id === 'string' && e.client_id.length >= 1 && e.client_id.length <= 256 &&
    Array.isArray(e.tenants) && e.tenants.length >= 1 && e.tenants.length <= MAX_MAPPINGS;
  if (!ok) throw new Error(ALLOWED);
  return { issuer: e.issuer as string, client_id: e.client_id as string, tenants: (e.tenants as unknown[]).map(parseMapping) };
}

function parseMapping(entry: unknown): TenantMapping {
  const m = entry as Record<string, unknown>;
  if (typeof m !== 'object' || m === null || typeof m.tenant !== 'string' || !TENANT_ID.test(m.tenant)) throw new Error(ALLOWED);
  const keys = (['hd', 'tid', 'email_domain'] as const).filter((k) => m[k] !== undefined);
  if (keys.length !== 1) throw new Error(`${ALLOWED}; exactly one of hd, tid, email_domain per mapping`);
  const key = keys[0];
  const value = m[key];
  if (typeof value !== 'string' || value.length > 253) throw new Error(ALLOWED);
  if (key !== 'tid' && !DOMAIN.test(value.toLowerCase())) throw new Error(`${ALLOWED}; ${key} must be a domain name`);
  if (key === 'tid' && !/^[A-Za-z0-9-]{1,64}$/.test(value)) throw new Error(`${ALLOWED}; tid must be a directory id`);
  return { [key]: key === 'tid' ? value : value.toLowerCase(), tenant: m.tenant };
}
