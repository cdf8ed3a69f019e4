import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BastionError } from '../errors.js';
import { authenticateApiKey } from '../http/hooks/api-key.js';
import { limitPerKey } from '../http/hooks/rate-limit.js';
import { requireBearer } from './portal/bearer.js';

/**
 * The admin listener's X-API-Key routes (financial, tenant impact, threat neutralizer; later agents and tunnels).
 * Registered inside a route group: `await app.register(apiKeyAuth)`. Every route of that group then
 *  - authenticates `X-API-Key` exactly as the data plane does (same resolver and cache, revocation on the next request;
 *    401 + `WWW-Authenticate: ApiKey` when missing or unknown) but never serves anonymous callers, whatever
 *    ALLOW_UNAUTHENTICATED says: these routes report on a tenant;
 *  - consumes the key's one sliding window, the same `key:<key_id>` window the data plane meters (SPEC §8: one window
 *    per key across both listeners and, through Redis, all replicas), and answers with the same rate-limit fields;
 *  - with `config.portalBearer: true`, also accepts the portal bearer token (`Authorization: Bearer`) of an account,
 *    scoped to the account's own tenant, when no X-API-Key is sent (the web console).
 * `scopedTenant()` resolves a `tenant_id` parameter against the credential's tenant.
 */
export async function apiKeyAuth(app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', async (request, reply) => {
    if (request.is404 || request.routeOptions.config.auth === 'public') return;
    const authorization = request.headers.authorization;
    if (request.routeOptions.config.portalBearer && request.headers['x-api-key'] === undefined && typeof authorization === 'string' && /^Bearer\s/i.test(authorization)) {
      await requireBearer(request, reply);
      return;
    }
    await authenticateApiKey(request, { allowAnonymous: false });
    await limitPerKey(request, reply);
  });
}
// Like fastify-plugin: the hook applies to the scope that registers it, not to a child scope of its own.
(apiKeyAuth as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;

/**
 * The tenant a request may act on: its credential's own. A `tenant_id` naming any other tenant is 403 with the same
 * answer whether that tenant exists or not, so nothing about other tenants can be learned.
 */
export function scopedTenant(request: FastifyRequest, requested?: string): string {
  const own = request.portal?.tenantId ?? request.principal?.tenantId;
  if (own === undefined) throw new BastionError('UNAUTHENTICATED', { headers: { 'www-authenticate': 'ApiKey' } });
  if (requested !== undefined && requested !== own) throw new BastionError('TENANT_FORBIDDEN');
  return own;
}

/** The plan of the tenant behind the credential (API key or portal bearer). */
export function planOf(request: FastifyRequest): string {
  return request.portal?.plan ?? request.principal?.plan ?? 'free';
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Admin API-key routes: also accept the portal bearer token for the account's own tenant. */
    portalBearer?: boolean;
  }
}
