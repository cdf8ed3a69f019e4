import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { PolicySchema, effectivePolicy, validatePolicy, wirePolicy } from '../../config/tenant-policy.js';
import { BastionError } from '../../errors.js';
import { tenantPolicies } from '../../policy/tenant-policies.js';
import { readTenantPolicy, writeTenantPolicy } from '../../storage/tenant-policies.js';
import { findTenant } from '../../storage/tenants.js';
import { requireAdminKey } from '../admin-key.js';

const Params = Type.Object({ tenant_id: Type.String({ pattern: '^[A-Za-z0-9_.-]{1,64}$' }) });
const PolicyResponse = Type.Object({
  tenant_id: Type.String(),
  policy: PolicySchema,
  effective: Type.Required(PolicySchema, { description: 'What the data plane applies: the stored fields over the process defaults' }),
});

/**
 * Operator routes for a tenant's detection policy (X-Admin-Key). GET shows what is stored and what applies;
 * PUT replaces the stored policy (fields left out follow the process defaults; `{}` resets the tenant to them).
 * A change reaches every replica at once over the broadcast bus (at worst within BASTION_POLICY_CACHE_TTL_MS).
 */
export async function tenantPolicyRoutes(app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', requireAdminKey);
  const { storage } = app.services;
  const policies = tenantPolicies(app.services);

  const existing = async (tenantId: string): Promise<void> => {
    if (!(await findTenant(storage.db, tenantId))) throw new BastionError('RESOURCE_NOT_FOUND', { message: 'No such tenant.' });
  };
  const answer = (tenantId: string, stored: Static<typeof PolicySchema> | undefined) => ({
    tenant_id: tenantId,
    policy: stored ?? {},
    effective: wirePolicy(effectivePolicy(policies.defaults, stored)),
  });

  app.get<{ Params: Static<typeof Params> }>(
    '/:tenant_id/policy',
    { config: { security: 'adminKey' }, schema: { summary: "A tenant's detection policy: stored overrides and the effective policy", params: Params, response: { 200: PolicyResponse } } },
    async (request) => {
      await existing(request.params.tenant_id);
      return answer(request.params.tenant_id, await readTenantPolicy(storage.db, request.params.tenant_id));
    },
  );

  app.put<{ Params: Static<typeof Params>; Body: Static<typeof PolicySchema> }>(
    '/:tenant_id/policy',
    {
      config: { security: 'adminKey' },
      schema: { summary: "Replace a tenant's detection policy (unknown fields: 422); effective on every replica at once", params: Params, body: PolicySchema, response: { 200: PolicyResponse } },
    },
    async (request) => {
      const tenantId = request.params.tenant_id;
      await existing(tenantId);
      const stored = await writeTenantPolicy(storage.db, tenantId, validatePolicy(request.body));
      if (!(await policies.changed(tenantId))) request.log.warn({ event: 'tenant_policy_changed' }, 'policy change not broadcast');
      return answer(tenantId, Object.keys(stored).length > 0 ? stored : undefined);
    },
  );
}
