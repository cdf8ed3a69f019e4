import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { isAnthropicPath } from './anthropic-errors.js';

const RATE_HEADERS = {
  'RateLimit-Policy': { type: 'string', description: 'draft-ietf-httpapi-ratelimit-headers-09 policies, e.g. `"requests-per-minute";q=60;w=60`' },
  RateLimit: { type: 'string', description: 'Present when the request consumed a window: `"requests-per-minute";r=59;t=60`' },
  'RateLimit-Limit': { type: 'integer', description: 'Earlier draft spelling of the quota' },
  'RateLimit-Remaining': { type: 'integer', description: 'Earlier draft spelling of r' },
  'RateLimit-Reset': { type: 'integer', description: 'Earlier draft spelling of t (delta-seconds)' },
  'X-RateLimit-Limit': { type: 'integer', description: 'Pre-draft mirror' },
  'X-RateLimit-Remaining': { type: 'integer', description: 'Pre-draft mirror' },
  'X-RateLimit-Reset': { type: 'integer', description: 'Pre-draft mirror: Unix epoch seconds, not a delta' },
};

const errorSchema = {
  type: 'object',
  properties: { error: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } }, required: ['code', 'message'] } },
};
/** /v1/* errors: OpenAI's envelope (src/http/openai-errors.ts). */
const openAiErrorSchema = {
  type: 'object',
  title: 'OpenAIError',
  properties: {
    error: {
      type: 'object',
      properties: { message: { type: 'string' }, type: { type: 'string' }, param: { type: ['string', 'null'] }, code: { type: 'string' } },
      required: ['message', 'type', 'param', 'code'],
    },
  },
};
/** /v1/messages errors: Anthropic's envelope (src/http/anthropic-errors.ts). */
const anthropicErrorSchema = {
  type: 'object',
  title: 'AnthropicError',
  properties: {
    type: { const: 'error' },
    error: { type: 'object', properties: { type: { type: 'string' }, message: { type: 'string' }, code: { type: 'string' } }, required: ['type', 'message'] },
    request_id: { type: 'string' },
  },
  required: ['type', 'error'],
};
const validationSchema = {
  type: 'object',
  title: 'HTTPValidationError',
  properties: {
    detail: {
      type: 'array',
      items: {
        type: 'object',
        properties: { loc: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } }, msg: { type: 'string' }, type: { type: 'string' } },
        required: ['loc', 'msg', 'type'],
      },
    },
  },
};

const json = (schema: object) => ({ 'application/json': { schema } });

export type Security = 'apiKey' | 'adminKey' | 'bearer' | 'session' | 'oidc' | 'public';

const CHALLENGE: Record<Exclude<Security, 'public'>, string> = {
  apiKey: '`ApiKey`',
  adminKey: '`AdminKey`',
  bearer: '`Bearer realm="bastion-portal", error="invalid_token"`',
  session: 'none: log in again at /auth/login',
  oidc: '`Bearer realm="bastion-ext", error="invalid_request"|"invalid_token", error_description="…"`',
};

/**
 * @fastify/swagger in dynamic mode, with the conventions every route shares added to the document only
 * (so they never change how responses are serialised): security, error responses and rate-limit headers.
 */
export async function registerOpenApi(app: FastifyInstance, title: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title, version: '7.9.0', description: 'Bastion AI security gateway. Blocked verdicts are delivered with HTTP 200: read the body.' },
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          bastionKey: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Bastion-Key',
            description: "Anthropic routes: the Bastion key beside the app's own Anthropic key; with ANTHROPIC_UPSTREAM_API_KEY set, the key may instead come as the SDK's apiKey (x-api-key or Authorization: Bearer)",
          },
          adminKey: { type: 'apiKey', in: 'header', name: 'X-Admin-Key' },
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          session: { type: 'apiKey', in: 'cookie', name: 'bastion_session' },
          oidc: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'OIDC ID token (RS256) from a configured identity provider; /ext/* only' },
          x402: { type: 'apiKey', in: 'header', name: 'PAYMENT-SIGNATURE', description: 'x402 payment proof: base64 JSON {agent_id (did:key), nonce, issued_at, amount, resource, signature}; paid MCP tools only' },
          l402: { type: 'http', scheme: 'L402', description: 'Authorization: L402 <base64 macaroon>:<hex preimage> of a paid Lightning invoice; paid MCP tools only, when LND_REST_URL is set' },
        },
      },
    },
    transform: ({ schema, url, route }) => {
      const cfg = (route.config ?? {}) as { security?: Security; rateLimited?: boolean; portalBearer?: boolean; paymentProof?: boolean };
      const security = cfg.security ?? 'public';
      const doc = { ...(schema ?? {}) } as Record<string, unknown>;
      const responses = { ...((doc.response as Record<string, unknown>) ?? {}) };
      const ok = Object.keys(responses).find((c) => c.startsWith('2')) ?? '200';
      responses[ok] = { ...(responses[ok] as object), headers: RATE_HEADERS };
      const anthropic = isAnthropicPath(url);
      const openai = url.startsWith('/v1/') && !anthropic;
      const errors = anthropic ? anthropicErrorSchema : openai ? openAiErrorSchema : errorSchema;
      // Anthropic's routes answer a malformed request 400, as Anthropic does; the others 422.
      if (anthropic) responses['400'] ??= { description: 'Request validation failed (invalid_request_error)', content: json(errors) };
      else responses['422'] ??= { description: 'Request validation failed', content: json(openai ? errors : validationSchema) };
      if (security !== 'public') {
        responses['401'] ??= {
          description: 'Missing or unknown credentials',
          headers: { 'WWW-Authenticate': { type: 'string', description: CHALLENGE[security] } },
          content: json(errors),
        };
      }
      if (cfg.rateLimited) {
        responses['429'] ??= {
          description: 'Per-minute window or monthly quota exceeded; a monthly 429 carries `upgrade_url`',
          headers: { ...RATE_HEADERS, 'Retry-After': { type: 'integer', description: 'Delta-seconds; same instant as the reset' } },
          content: json(errors),
        };
      }
      // Listener-wide client errors (malformed JSON 400, unknown id 404, 409, 413, 414, 415, 431, …) are all
      // catalogue-shaped: say so once, so a client (and the fuzz suite) knows the shape of any 4xx not listed.
      const shape = anthropic ? "Anthropic's error envelope" : openai ? "OpenAI's error envelope" : 'the catalogue shape';
      responses['4XX'] ??= { description: `Any other client error, in ${shape}`, content: json(errors) };
      responses['5XX'] ??= { description: 'The gateway failed: retry with backoff, never a block verdict', content: json(errors) };
      doc.response = responses;
      if (security !== 'public') doc.security = [{ [security]: [] }];
      if (anthropic) doc.security = [{ bastionKey: [] }, { apiKey: [] }];
      // Admin API-key routes that also take the portal bearer token (src/admin/api-key-auth.ts): either scheme.
      if (cfg.portalBearer) doc.security = [{ [security]: [] }, { bearer: [] }];
      // Paid MCP tools: an API key, or one of the payment proofs instead (src/mcp/admission.ts).
      if (cfg.paymentProof) doc.security = [{ [security]: [] }, { x402: [] }, { l402: [] }];
      return { schema: doc, url };
    },
  });
  app.get('/openapi.json', { schema: { hide: true }, config: { auth: 'public' } }, async () => app.swagger());
}

declare module 'fastify' {
  interface FastifyContextConfig {
    security?: Security;
    rateLimited?: boolean;
  }
}
