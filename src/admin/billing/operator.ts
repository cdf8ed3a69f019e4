import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { addonTierShortfall, partitionAddons } from '../../auth/entitlements.js';
import { ADDON_NAMES, DEFAULT_PLAN, PLAN_NAMES } from '../../config/plans.js';
import { BastionError, RequestValidationError } from '../../errors.js';
import { changeEntitlements, type Tenant } from '../../storage/tenants.js';
import { requireAdminKey } from '../admin-key.js';

const Body = Type.Object(
  {
    tenant_id: Type.String({ pattern: '^[A-Za-z0-9_.-]{1,64}$' }),
    tier: Type.Optional(Type.Enum([...PLAN_NAMES], { description: 'grant: set this plan; revoke: back to the default plan if it is the current one' })),
    addon: Type.Optional(Type.Enum([...ADDON_NAMES], { description: 'grant: add it; revoke: remove it' })),
  },
  { additionalProperties: false },
);
const Entitlements = Type.Object({
  tenant_id: Type.String(),
  tier: Type.String(),
  addons: Type.Array(Type.String()),
  lapsed_addons: Type.Optional(
    Type.Array(Type.String(), { description: 'Present when the new tier is below an add-on\'s min_tier: those add-ons were removed' }),
  ),
});
// Described only (like 402/403 in ../entitlements.ts): a body schema would make the serializer drop catalogue fields.
const Refused = {
  description:
    'ADDON_TIER_TOO_LOW: the add-on needs a higher tier than the tenant would have (body: addon, min_tier, current_tier); nothing changed. CONFLICT: a concurrent change won; retry',
};

type Change = (tenant: Tenant, body: Static<typeof Body>) => { plan: string; addons: string[] };

/** Refuses (409) a grant of an add-on the resulting tier does not allow; the tenant is left unchanged. */
function refuseBelowMinTier(plan: string, addon: string | undefined): void {
  const shortfall = addon === undefined ? undefined : addonTierShortfall(plan, addon);
  if (!shortfall) return;
  throw new BastionError('ADDON_TIER_TOO_LOW', {
    message: `Add-on "${shortfall.addon}" needs plan ${shortfall.minTier} or above; the tenant's plan would be ${shortfall.currentTier}. Grant the tier first, or in the same request.`,
    extra: { addon: shortfall.addon, min_tier: shortfall.minTier, current_tier: shortfall.currentTier },
  });
}

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
      { config: { security: 'adminKey' }, schema: { summary, body: Body, response: { 200: Entitlements, 409: Refused } } },
      async (request) => {
        const { tenant_id, tier, addon } = request.body;
        if (tier === undefined && addon === undefined) {
          throw new RequestValidationError([{ loc: ['body'], msg: 'Give tier, addon or both', type: 'missing' }]);
        }
        // Whatever the change, add-ons the resulting tier does not allow lapse in the same write (a downgrade).
        const changed = await changeEntitlements(storage.db, tenant_id, (tenant) => {
          const next = change(tenant, request.body);
          return { plan: next.plan, addons: partitionAddons(next.plan, next.addons).kept };
        });
        if (!changed) throw new BastionError('RESOURCE_NOT_FOUND', { message: 'No such tenant.' });
        if (changed === 'contended') throw new BastionError('CONFLICT', { message: 'The tenant was being changed by another request. Retry.' });
        const { before, after } = changed;
        const lapsed = before.addons.filter((a) => !after.addons.includes(a) && a !== addon);
        await broadcast.publish({ type: 'tenant_changed', tenant_id }).catch(() => {
          // The change is stored; replicas that missed the message re-read keys within BASTION_KEY_CACHE_TTL_MS.
          request.log.warn({ event: 'tenant_changed' }, 'entitlement change not broadcast');
        });
        if (lapsed.length > 0) request.log.info({ event: 'addons_lapsed', tenant_id, tier: after.plan, lapsed }, 'add-ons lapsed with the tier');
        return { tenant_id, tier: after.plan, addons: after.addons, ...(lapsed.length > 0 ? { lapsed_addons: lapsed } : {}) };
      },
    );

  route('/grant', 'Set a tenant\'s plan and/or add an add-on, effective immediately; an add-on below its min_tier is 409', (tenant, { tier, addon }) => {
    const plan = tier ?? tenant.plan;
    refuseBelowMinTier(plan, addon);
    return { plan, addons: addon ? [...tenant.addons, addon] : tenant.addons };
  });

  route('/revoke', 'Remove an add-on and/or drop a plan back to the default (add-ons it no longer allows lapse), effective immediately', (tenant, { tier, addon }) => ({
    plan: tier !== undefined && tenant.plan === tier ? DEFAULT_PLAN : tenant.plan,
    addons: tenant.addons.filter((a) => a !== addon),
  }));
}
