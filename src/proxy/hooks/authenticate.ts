import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../../auth/key-resolver.js';
import { BastionError } from '../../errors.js';

// Query parameters that look like a credential: refused outright, so a key pasted into a URL is never honoured.
const QUERY_KEY_NAMES = new Set(['api_key', 'apikey', 'key', 'x-api-key', 'x_api_key', 'token', 'access_token']);

const unauthenticated = () => new BastionError('UNAUTHENTICATED', { headers: { 'www-authenticate': 'ApiKey' } });

/**
 * onRequest: X-API-Key → principal (SPEC §5). Unknown or missing → 401 with `WWW-Authenticate: ApiKey`.
 * With ALLOW_UNAUTHENTICATED=true a request *without* a key is served as the `default` tenant; a wrong key is still 401.
 */
export async function authenticate(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const query = request.query as Record<string, unknown> | undefined;
  if (query && Object.keys(query).some((k) => QUERY_KEY_NAMES.has(k.toLowerCase()))) {
    throw new BastionError('QUERY_KEY_REFUSED', { headers: { 'www-authenticate': 'ApiKey' } });
  }
  const header = request.headers['x-api-key'];
  const services = request.server.services;
  if (header === undefined || header === '') {
    if (services.config.allowUnauthenticated) {
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

function anonymous(rate: number, ip: string): Principal {
  return { keyId: `anon:${ip}`, tenantId: 'default', prefix: 'anonymous', ratePerMinute: rate, plan: 'free', addons: [] };
}

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
}
