import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { checkEntitlement } from '../../auth/entitlements.js';
import { getPlan, upgradeLink } from '../../config/plans.js';
import { BastionError } from '../../errors.js';
import { IdTokenVerifier } from '../../ext/id-token.js';
import { mapTenant } from '../../ext/tenant-mapping.js';
import { MINUTE_POLICY, MONTH_POLICY } from '../../http/hooks/rate-limit.js';
import type { PolicyState } from '../../limits/headers.js';
import { monthWindowSeconds } from '../../limits/month.js';
import type { Services } from '../../services.js';
import { findTenant } from '../../storage/tenants.js';

/** The add-on /ext/* needs (config/plans.json; its min_tier is enterprise, so lower tiers get 403 first). */
export const EXT_ADDON = 'extension';
export const TENANT_MINUTE_POLICY = 'tenant-requests-per-minute';
const MINUTE_MS = 60_000;
const REALM = 'Bearer realm="bastion-ext"';

const verifiers = new WeakMap<Services, IdTokenVerifier>();
function verifierOf(services: Services): IdTokenVerifier {
  let verifier = verifiers.get(services);
  if (!verifier) {
    const c = services.config;
    verifier = new IdTokenVerifier({
      issuers: c.oidcIssuers,
      clockSkewSeconds: c.oidcClockSkewSeconds,
      timeoutMs: c.oidcTimeoutMs,
      jwksCooldownMs: c.oidcJwksCooldownMs,
    });
    verifiers.set(services, verifier);
  }
  return verifier;
}

/** RFC 6750 §3: a 401 names the scheme and, when a token was presented or the request is malformed, the error. */
function unauthenticated(error: 'invalid_request' | 'invalid_token', description: string): BastionError {
  return new BastionError('EXT_UNAUTHENTICATED', { headers: { 'www-authenticate': `${REALM}, error="${error}", error_description="${description}"` } });
}

/**
 * onRequest of every /ext/* route (SPEC §5, OIDC bearer): Origin allow-list (403), ID token only (an X-API-Key is
 * refused, 401), verification (401; 503 when the IdP cannot be asked), user → tenant (403 when unmapped),
 * entitlement (403 below enterprise, 402 without the extension add-on), then the per-user and per-tenant windows (429).
 * On success the request carries a principal for the tenant, so judge(), quotas, stats and metrics work as for keys.
 */
export async function authenticateExtension(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const { services } = request.server;
  checkOrigin(request, reply);
  if (request.headers['x-api-key'] !== undefined) throw unauthenticated('invalid_request', 'API keys are not accepted here: send an ID token');
  const header = request.headers.authorization;
  const token = typeof header === 'string' && /^Bearer [A-Za-z0-9._~+/=-]{1,16384}$/.test(header) ? header.slice(7) : undefined;
  if (!token) throw unauthenticated('invalid_request', 'Authorization: Bearer <ID_TOKEN> required');
  const verified = await verifierOf(services).verify(token);
  if (!verified.ok) {
    if (verified.reason === 'unavailable') throw new BastionError('IDP_UNAVAILABLE', { headers: { 'retry-after': '5' } });
    throw unauthenticated('invalid_token', 'The ID token is invalid, expired, or not for this gateway');
  }
  const tenantId = mapTenant(verified.issuer, verified.claims);
  const tenant = tenantId ? await findTenant(services.storage.db, tenantId) : undefined;
  if (!tenant) throw new BastionError('EXT_USER_UNMAPPED');
  checkEntitled(tenant.plan, tenant.addons, services.config.upgradeUrl);
  // A stable, non-reversible user id: issuer + subject (the e-mail may change, `sub` does not).
  const user = createHash('sha256').update(`${verified.issuer.issuer}\n${String(verified.claims.sub)}`).digest('hex').slice(0, 24);
  request.principal = { keyId: `oidc:${user}`, tenantId: tenant.id, prefix: 'oidc', ratePerMinute: services.config.extUserRatePerMinute, plan: tenant.plan, addons: tenant.addons };
  request.extUser = user;
  await limitExtension(request, user, tenant.id);
}

function checkOrigin(request: FastifyRequest, reply: FastifyReply): void {
  const origin = request.headers.origin;
  if (origin === undefined) return; // not a browser request: CORS does not apply
  if (!request.server.services.config.extOrigins.includes(origin)) throw new BastionError('ORIGIN_FORBIDDEN');
  reply.header('access-control-allow-origin', origin);
  reply.header('vary', 'Origin');
}

function checkEntitled(plan: string, addons: readonly string[], upgradeUrl: string | undefined): void {
  const outcome = checkEntitlement({ plan, addons }, { addon: EXT_ADDON });
  if (outcome.ok) return;
  const upgrade = upgradeLink(upgradeUrl);
  if (outcome.error === 'PLAN_TOO_LOW') {
    throw new BastionError('PLAN_TOO_LOW', {
      message: `Your plan (${outcome.currentTier}) does not include the browser extension: it needs ${outcome.requiredTier}.`,
      extra: { required_tier: outcome.requiredTier, current_tier: outcome.currentTier, ...upgrade },
    });
  }
  throw new BastionError('ADDON_REQUIRED', {
    message: `The browser extension needs the "${outcome.addon}" add-on (${outcome.description}). Buy it to use /ext/*.`,
    extra: { addon: outcome.addon, addon_description: outcome.description, ...upgrade },
  });
}

/** Sliding windows per user and per tenant; the monthly policy is published like /filter's (enterprise: none). */
async function limitExtension(request: FastifyRequest, user: string, tenantId: string): Promise<void> {
  const { config, window } = request.server.services;
  const userPolicy: PolicyState = { name: MINUTE_POLICY, quota: config.extUserRatePerMinute, windowSeconds: 60 };
  const tenantPolicy: PolicyState = { name: TENANT_MINUTE_POLICY, quota: config.extTenantRatePerMinute, windowSeconds: 60 };
  const policies = [userPolicy, tenantPolicy];
  const monthly = getPlan(request.principal!.plan).monthlyQuota;
  if (monthly !== null) policies.push({ name: MONTH_POLICY, quota: monthly, windowSeconds: monthWindowSeconds(Date.now()) });
  request.rateState = policies;
  for (const [policy, key] of [[userPolicy, `ext-user:${user}`], [tenantPolicy, `ext-tenant:${tenantId}`]] as const) {
    const result = await window.consume(key, policy.quota, MINUTE_MS);
    policy.consumed = { remaining: result.remaining, resetMs: result.resetMs, denied: !result.allowed };
    if (!result.allowed) throw new BastionError('RATE_LIMITED');
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** /ext/*: the signed-in user's pseudonymous id (hash of issuer and subject). */
    extUser?: string;
  }
}
