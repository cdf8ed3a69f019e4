import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { RULE_STATUSES } from '../../storage/evolution-schema.js';
import { TenantQuery } from '../agents/schemas.js';
import { apiKeyAuth, scopedTenant } from '../api-key-auth.js';
import { Forbidden } from '../financial/schemas.js';

const config = { security: 'apiKey', rateLimited: true, portalBearer: true } as const;
const Nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer>>(schema: T) => Type.Union([schema, Type.Null()]);

export const TenantRule = Type.Object({
  id: Type.String(),
  kind: Type.Union([Type.Literal('regex'), Type.Literal('phrase'), Type.Literal('exemplar')]),
  pattern: Type.String(),
  status: Type.Enum([...RULE_STATUSES]),
  origin: Type.Union([Type.Literal('your_traffic'), Type.Literal('shared'), Type.Literal('imported')], {
    description: "your_traffic: made from this tenant's attacks, applies to it alone; shared: in force for every tenant; imported: from a syndicate peer, for this tenant",
  }),
  family: Nullable(Type.String()),
  source: Type.String({ description: 'llm, offline or syndicate: who wrote it' }),
  attack_type: Nullable(Type.String()),
  explanation: Nullable(Type.String()),
  reason: Nullable(Type.String({ description: 'Why it is disabled' })),
  hits: Nullable(Type.Integer({ description: "Requests it judged (null for a shared rule: its count is every tenant's)" })),
  your_reports: Type.Integer({ description: 'False positives this tenant reported against it' }),
  yours: Type.Boolean({ description: 'Whether this tenant may disable or enable it' }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});
const ListQuery = Type.Object(
  { tenant_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 200 })) },
  { additionalProperties: false },
);
const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 40 }) }, { additionalProperties: false });
const errors = { 403: Forbidden, 404: { description: 'RESOURCE_NOT_FOUND: no such rule for this tenant' } };

/**
 * The tenant's evolved rules on the admin listener (X-API-Key or the console's bearer, tenant-scoped): the rules in
 * force for it with their origin, hits and its reports, and disable/enable of its own rules (the tenant's word is
 * final for them). A change reaches every worker thread and replica like an operator's.
 */
export async function tenantRuleRoutes(app: FastifyInstance): Promise<void> {
  await app.register(apiKeyAuth);
  const { tenant } = app.services.evolution.admin;

  app.get<{ Querystring: Static<typeof ListQuery> }>(
    '/',
    { config, schema: { summary: "Evolved rules in force for the tenant (shared ones and its own), newest first", querystring: ListQuery, response: { 200: Type.Object({ rules: Type.Array(TenantRule) }), 403: Forbidden } } },
    async (request) => ({ rules: await tenant.list(scopedTenant(request, request.query.tenant_id), request.query.limit ?? 200) }),
  );

  app.get<{ Querystring: Static<typeof TenantQuery>; Params: Static<typeof Params> }>(
    '/:id',
    { config, schema: { summary: 'One evolved rule as the tenant sees it', querystring: TenantQuery, params: Params, response: { 200: TenantRule, ...errors } } },
    async (request) => tenant.show(scopedTenant(request, request.query.tenant_id), request.params.id),
  );

  for (const decision of ['disable', 'enable'] as const) {
    app.post<{ Querystring: Static<typeof TenantQuery>; Params: Static<typeof Params> }>(
      `/:id/${decision}`,
      {
        config,
        schema: {
          summary: decision === 'disable' ? "Take one of the tenant's own rules out of force at once" : 'Put back a rule the tenant disabled itself',
          querystring: TenantQuery,
          params: Params,
          response: { 200: TenantRule, ...errors, 409: { description: 'RULE_TRANSITION_INVALID' } },
        },
      },
      async (request) => {
        const rule = await tenant.decide(scopedTenant(request, request.query.tenant_id), request.params.id, decision);
        request.log.info({ event: `rule_${decision}d_by_tenant`, rule: rule.id }, 'tenant rule decision');
        return rule;
      },
    );
  }
}
