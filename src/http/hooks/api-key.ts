import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../../auth/key-resolver.js';
import { BastionError } from '../../errors.js';

// Query parameters that look like a credential: refused outright, so a key pasted into a URL is never honoured.
const QUERY_KEY_NAMES = new Set(['api_key', 'apikey', 'key', 'x-api-key', 'x_api_key', 'token', 'access_token']);

const unauthenticated = () => new BastionError('UNAUTHENTICATED', { headers: { 'www-authenticate': 'ApiKey' } });

/**
 * onRequest: X-API-Key → principal (SPEC §5). Unknown or missing → 401 with `WWW-Authenticate: ApiKey`.
 * With ALLOW_UNAUTHENTICATED=true a data-plane request *without* a key is served as the `default` tenant; a wrong key
 * is still 401. Shared by both listeners: the data plane (src/proxy/server.ts) and the admin listener's API-key routes
 * (src/admin/api-key-auth.ts), which never serve anonymous callers.
 */
export async function authenticate(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  await authenticateApiKey(request, { allowAnonymous: request.server.services.config.allowUnauthenticated });
}

export async function authenticateApiKey(request: FastifyRequest, options: { allowAnonymous: boolean }): Promise<void> {
  const query = request.query as Record<string, unknown> | undefined;
  if (query && Object.keys(query).some((k) => QUERY_KEY_NAMES.has(k.toLowerCase()))) {
    throw new BastionError('QUERY_KEY_REFUSED', { headers: { 'www-authenticate': 'ApiKey' } });
  }
  const services = request.server.services;
  const header = request.headers['x-api-key'] ?? bearerKey(request);
  if (header === undefined || header === '') {
    if (options.allowAnonymous) {
      request.principal = anonymous(services.config.defaultRatePerMinute, request.ip);
      request.tenantId = request.principal.tenantId;
      return;
    }
    throw unauthenticated();
  }
  if (Array.isArray(header) || header.length > 512) throw unauthenticated();
  let principal: Principal | undefined;
  try {
    principal = await services.keys.resolve(header);
  } catch (cause) {
    throw new BastionError('STORAGE_UNAVAILABLE', { headers: { 'retry-after': '5' }, cause });
  }
  if (!principal) throw unauthenticated();
  request.principal = principal;
  request.tenantId = principal.tenantId;
  request.keyPrefix = principal.prefix;
}

/**
 * On /v1/* the Bastion key may come as `Authorization: Bearer`, but only when Bastion holds the upstream credential
 * (UPSTREAM_API_KEY): otherwise that header is the app's upstream key and passes through untouched.
 */
function bearerKey(request: FastifyRequest): string | undefined {
  if (!request.routeOptions.config.bearerKey || !request.server.services.config.upstreamApiKey) return undefined;
  const auth = request.headers.authorization;
  return auth?.startsWith('Bearer ') ? auth.slice(7).trim() : undefined;
}

function anonymous(rate: number, ip: string): Principal {
  return { keyId: `anon:${ip}`, tenantId: 'default', prefix: 'anonymous', ratePerMinute: rate, plan: 'free', addons: [] };
}

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
  interface FastifyContextConfig {
    /** Accept the Bastion key as `Authorization: Bearer` when UPSTREAM_API_KEY is configured (/v1/*). */
    bearerKey?: boolean;
  }
}
