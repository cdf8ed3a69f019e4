import type { FastifyRequest } from 'fastify';
import type { Principal } from '../../auth/key-resolver.js';
import { BastionError } from '../../errors.js';

// Query parameters that look like a credential: refused outright, so a key pasted into a URL is never honoured.
const QUERY_KEY_NAMES = new Set(['api_key', 'apikey', 'key', 'x-api-key', 'x_api_key', 'token', 'access_token']);

/**
 * The 401 names the way this deployment accepts the key: on /v1/* an app configures an SDK, so it is told whether the
 * Bastion key goes in `apiKey` (Bearer, when Bastion holds the upstream credential) or in an X-API-Key default header.
 */
function unauthenticated(request: FastifyRequest): BastionError {
  if (request.routeOptions.config.anthropicKey) {
    const message = request.server.services.config.anthropicUpstreamApiKey
      ? "Missing or unknown API key. Send your Bastion key as the Anthropic SDK's apiKey (x-api-key or Authorization: Bearer) or in the X-Bastion-Key header."
      : 'Missing or unknown API key. Send your Bastion key in the X-Bastion-Key header (the SDK\'s defaultHeaders); x-api-key or Authorization carries your Anthropic key to the upstream.';
    return new BastionError('UNAUTHENTICATED', { headers: { 'www-authenticate': 'ApiKey' }, message });
  }
  const bearer = request.routeOptions.config.bearerKey === true;
  const message = !bearer
    ? undefined
    : request.server.services.config.upstreamApiKey
      ? 'Missing or unknown API key. Send your Bastion key as Authorization: Bearer <key> (the SDK\'s apiKey) or in the X-API-Key header.'
      : 'Missing or unknown API key. Send your Bastion key in the X-API-Key header (the SDK\'s defaultHeaders); Authorization carries your provider key to the upstream.';
  return new BastionError('UNAUTHENTICATED', { headers: { 'www-authenticate': 'ApiKey' }, ...(message ? { message } : {}) });
}

/**
 * X-API-Key → principal (SPEC §5). Unknown or missing → 401 with `WWW-Authenticate: ApiKey`. With
 * ALLOW_UNAUTHENTICATED=true a data-plane request *without* a key is served as the `default` tenant; a wrong key is
 * still 401. The data plane admits keys in its own onRequest hook (`admit.ts`, built from `presentedKey` and
 * `admitPrincipal`); the admin listener's API-key routes (src/admin/api-key-auth.ts) and POST /mcp's admission call
 * this, and never serve anonymous callers.
 */
export async function authenticateApiKey(request: FastifyRequest, options: { allowAnonymous: boolean }): Promise<void> {
  const key = presentedKey(request, options);
  if (key === undefined) return;
  let principal: Principal | undefined;
  try {
    principal = await request.server.services.keys.resolve(key);
  } catch (cause) {
    throw new BastionError('STORAGE_UNAVAILABLE', { headers: { 'retry-after': '5' }, cause });
  }
  admitPrincipal(request, principal);
}

/**
 * The key a request presents, checked for shape; undefined when it presents none and anonymous callers are served
 * (the principal is then set here). Throws the 401 (or the refusal of a key in the query string).
 */
export function presentedKey(request: FastifyRequest, options: { allowAnonymous: boolean }): string | undefined {
  const query = request.query as Record<string, unknown> | undefined;
  if (query && Object.keys(query).some((k) => QUERY_KEY_NAMES.has(k.toLowerCase()))) {
    throw new BastionError('QUERY_KEY_REFUSED', { headers: { 'www-authenticate': 'ApiKey' } });
  }
  const services = request.server.services;
  const header = request.routeOptions.config.anthropicKey ? anthropicRouteKey(request) : (request.headers['x-api-key'] ?? bearerKey(request));
  if (header === undefined || header === '') {
    if (options.allowAnonymous) {
      request.principal = anonymous(services.config.defaultRatePerMinute, request.ip);
      request.tenantId = request.principal.tenantId;
      return undefined;
    }
    throw unauthenticated(request);
  }
  if (Array.isArray(header) || header.length > 512) throw unauthenticated(request);
  return header;
}

/** Sets the resolved principal on the request; an unknown key is the 401. */
export function admitPrincipal(request: FastifyRequest, principal: Principal | undefined): void {
  if (!principal) throw unauthenticated(request);
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

/**
 * On the Anthropic routes (/v1/messages) the SDK sends its `apiKey` as x-api-key (older releases) or Authorization:
 * Bearer (current ones). When Bastion holds the Anthropic credential (ANTHROPIC_UPSTREAM_API_KEY) either carries the
 * Bastion key; otherwise both belong to the app's Anthropic account and pass upstream, and the Bastion key comes in
 * X-Bastion-Key (which is accepted in both cases).
 */
function anthropicRouteKey(request: FastifyRequest): string | string[] | undefined {
  const own = request.headers['x-bastion-key'];
  if (own !== undefined || !request.server.services.config.anthropicUpstreamApiKey) return own;
  const auth = request.headers.authorization;
  return request.headers['x-api-key'] ?? (auth?.startsWith('Bearer ') ? auth.slice(7).trim() : undefined);
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
    /** The Anthropic routes' key headers: X-Bastion-Key, or the SDK's apiKey when ANTHROPIC_UPSTREAM_API_KEY is set. */
    anthropicKey?: boolean;
  }
}
