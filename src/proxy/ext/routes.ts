import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { BastionError } from '../../errors.js';
import { consumeMonthlyQuota } from '../../http/hooks/rate-limit.js';
import { redact } from '../../inspect/redact.js';
import { judge } from '../../screening/judge.js';
import { FilterBody, VerdictResponse } from '../filter/schemas.js';
import { authenticateExtension } from './auth.js';

/**
 * /ext/* for the browser extension (SPEC §5 OIDC bearer, enterprise with the `extension` add-on). Gateway mode only:
 * browsers on employees' machines cannot reach a loopback sidecar. Authentication and limits: ./auth.ts.
 */
const RedactBody = Type.Object(
  { text: Type.String({ maxLength: 16 * 1024 * 1024, description: 'Text the user is about to paste or send' }) },
  { additionalProperties: false },
);
const RedactResponse = Type.Object({
  request_id: Type.String(),
  redacted: Type.Boolean({ description: 'Whether any secret was replaced' }),
  redacted_text: Type.String({ description: 'The text with each secret replaced by a placeholder' }),
  findings: Type.Array(Type.Object({ type: Type.String(), start: Type.Integer(), end: Type.Integer() }), {
    description: 'The secrets found: type and character offsets in the original text (never the secret itself)',
  }),
});
const PolicyResponse = Type.Object({
  tenant_id: Type.String(),
  sites: Type.Array(Type.String(), { description: 'Host names the extension screens (`*.` prefix: any subdomain)' }),
  mode: Type.Union([Type.Literal('block'), Type.Literal('warn')], { description: 'block: refuse a blocked paste; warn: ask the user first' }),
  redaction: Type.Boolean({ description: 'Replace secrets with POST /ext/redact before sending' }),
  refresh_seconds: Type.Integer({ description: 'How long the extension may cache this policy' }),
});

const POLICY_REFRESH_S = 900;
const CORS_MAX_AGE_S = 600;

export async function extRoutes(app: FastifyInstance): Promise<void> {
  const { config } = app.services;
  const route = { auth: 'oidc' as const, security: 'oidc' as const, rateLimited: true };

  app.post<{ Body: Static<typeof FilterBody> }>(
    '/ext/filter',
    {
      config: route,
      onRequest: authenticateExtension,
      schema: { summary: 'Browser extension: inspect one text (same body and verdict as POST /filter). Counts toward the monthly quota.', tags: ['ext'], body: FilterBody, response: { 200: VerdictResponse } },
    },
    async (request) => {
      await consumeMonthlyQuota(request, 1);
      const { content, kind, role, strict } = request.body;
      // ERS per signed-in user: one employee's attacks do not shadow-ban the whole tenant.
      const [verdict] = await judge(request, [{ content, kind, role }], {
        strict,
        entity: `${request.principal!.tenantId}/ext:${request.extUser}`,
        contentLimitBytes: config.contentLimitBytes,
      });
      return verdict;
    },
  );

  app.post<{ Body: Static<typeof RedactBody> }>(
    '/ext/redact',
    {
      config: route,
      onRequest: authenticateExtension,
      schema: { summary: 'Browser extension: replace the secrets in a text before it is sent to an AI chat site.', tags: ['ext'], body: RedactBody, response: { 200: RedactResponse } },
    },
    async (request) => {
      const { text } = request.body;
      const [verdict] = await judge(request, [{ content: text, kind: 'prompt' }], { contentLimitBytes: config.contentLimitBytes, record: false });
      const findings = verdict.secrets.map(({ type, start, end }) => ({ type, start, end }));
      return { request_id: verdict.request_id, redacted: findings.length > 0, redacted_text: redact(text, verdict.secrets, []), findings };
    },
  );

  app.get(
    '/ext/policy',
    {
      config: route,
      onRequest: authenticateExtension,
      schema: { summary: "Browser extension: what to enforce for the signed-in user's tenant.", tags: ['ext'], response: { 200: PolicyResponse } },
    },
    async (request) => ({
      tenant_id: request.principal!.tenantId,
      sites: config.extSites,
      mode: config.extMode,
      redaction: config.extRedaction,
      refresh_seconds: POLICY_REFRESH_S,
    }),
  );

  // CORS preflight: only the configured extension origins; any other Origin is 403 (SPEC §5 rule 2).
  app.options(
    '/ext/*',
    { config: { auth: 'public', limit: 'none' }, schema: { hide: true } },
    async (request, reply) => {
      const origin = request.headers.origin;
      if (origin === undefined || !config.extOrigins.includes(origin)) throw new BastionError('ORIGIN_FORBIDDEN');
      return reply
        .code(204)
        .header('access-control-allow-origin', origin)
        .header('access-control-allow-methods', 'GET, POST')
        .header('access-control-allow-headers', 'authorization, content-type')
        .header('access-control-max-age', String(CORS_MAX_AGE_S))
        .header('vary', 'Origin')
        .send();
    },
  );
}
