import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { ADDON_NAMES, DEFAULT_PLAN, PLAN_NAMES } from '../../config/plans.js';
import { BastionError, RequestValidationError } from '../../errors.js';
import { findTenant, setEntitlements, type Tenant } from '../../storage/tenants.js';
import { requireAdminKey } from '../admin-key.js';

const Body = Type.Object(
  {
    tenant_id: Type.String({ pattern: '^[A-Za-z0-9_.-]{1,64}$' }),
    tier: Type.Optional(Type.Enum([...PLAN_NAMES], { description: 'grant: set this plan; revoke: back to the default plan if it is the current one' })),
    addon: Type.Optional(Type.Enum([...ADDON_NAMES], { description: 'grant: add it; revoke: remove it' })),
  },
  { additionalProperties: false },
);
const Entitlements = Type.Object({ tenant_id: Type.String(), tier: Type.String(), addons: Type.Array(Type.String()) });

type Change = (tenant: Tenant, body: Static<typeof Body>) => { plan: string; addons: string[] };

/**
 * Operator billing routes (SPEC §5: X-Admin-Key, never an API key). A change applies at once: authenticated portal
 * requests read the plan fresh, and `tenant_changed` makes every replica drop the API-key principals it cached.
 */
export async function operatorBillingRoutes(app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', requireAdminKey);
  const { storage, broadcast } = app.services;

  const route = (path: string, summary: string, change: Change) =>
    app.post<{ Body: Static<typeof Body> }>(
      path,
      { config: { security: 'adminKey' }, schema: { summary, body: Body, response: { 200: Entitlements } } },
      async (request) => {
        const { tenant_id, tier, addon } = request.body;
        if (tier === undefined && addon === undefined) {
          throw new RequestValidationError([{ loc: ['body'], msg: 'Give tier, addon or both', type: 'missing' }]);
        }
        const tenant = await findTenant(storage.db, tenant_id);
        if (!tenant) throw new BastionError('RESOURCE_NOT_FOUND', { message: 'No such tenant.' });
        const updated = (await setEntitlements(storage.db, tenant_id, change(tenant, request.body)))!;
        await broadcast.publish({ type: 'tenant_changed', tenant_id }).catch(() => {
          // The change is stored; replicas that missed the message re-read keys within BASTION_KEY_CACHE_TTL_MS.
          request.log.warn({ event: 'tenant_changed' }, 'entitlement change not broadcast');
        });
        return { tenant_id, tier: updated.plan, addons: updated.addons };
      },
    );

  route('/grant', 'Set a tenant\'s plan and/or add an add-on, effective immediately', (tenant, { tier, addon }) => ({
    plan: tier ?? tenant.plan,
    addons: addon ? [...tenant.addons, addon] : tenant.addons,
  }));

  route('/revoke', 'Remove an add-on and/or drop a plan back to the default, effective immediately', (tenant, { tier, addon }) => ({
    plan: tier !== undefined && tenant.plan === tier ? DEFAULT_PLAN : tenant.plan,
    addons: tenant.addons.filter((a) => a !== addon),
  }));
}
