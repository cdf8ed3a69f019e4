import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ADDON_NAMES, getAddon, getPlan, tierRank } from '../../config/plans.js';
import { monthStart, nextMonthStart } from '../../limits/month.js';

const Billing = Type.Object({
  tenant_id: Type.String(),
  tier: Type.String(),
  monthly_quota: Type.Union([Type.Integer(), Type.Null()], { description: 'null: unlimited (enterprise)' }),
  used: Type.Integer({ description: 'Requests counted this UTC month (POST /filter, each /filter/batch item)' }),
  remaining: Type.Union([Type.Integer(), Type.Null()]),
  period_start: Type.String({ format: 'date-time' }),
  period_end: Type.String({ format: 'date-time', description: 'When the monthly quota resets (start of the next UTC month)' }),
  max_rate_per_minute: Type.Integer({ description: 'Highest per-key rate this plan allows' }),
  addons: Type.Array(Type.String(), { description: 'Purchased add-ons' }),
  available_addons: Type.Array(
    Type.Object({ name: Type.String(), description: Type.String(), min_tier: Type.String(), purchased: Type.Boolean(), eligible: Type.Boolean() }),
  ),
  upgrade_url: Type.Union([Type.String(), Type.Null()], { description: 'Where to upgrade (BASTION_UPGRADE_URL); null when the operator set none' }),
});

/** GET /portal/billing: plan, this month's quota use and add-ons (SPEC §4.4). Counters come from the same store the data plane meters. */
export async function portalBillingRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/billing',
    { config: { security: 'bearer' }, schema: { summary: 'Plan tier, monthly quota and use, period end, add-ons', response: { 200: Billing } } },
    async (request) => {
      const { tenantId, plan: tier, addons } = request.portal!;
      const plan = getPlan(tier);
      const now = Date.now();
      const used = await app.services.quota.used(tenantId, now);
      return {
        tenant_id: tenantId,
        tier,
        monthly_quota: plan.monthlyQuota,
        used,
        remaining: plan.monthlyQuota === null ? null : Math.max(0, plan.monthlyQuota - used),
        period_start: new Date(monthStart(now)).toISOString(),
        period_end: new Date(nextMonthStart(now)).toISOString(),
        max_rate_per_minute: plan.maxRatePerMinute,
        addons,
        available_addons: ADDON_NAMES.map((name) => {
          const addon = getAddon(name);
          return {
            name,
            description: addon.description,
            min_tier: addon.minTier,
            purchased: addons.includes(name),
            eligible: tierRank(tier) >= tierRank(addon.minTier),
          };
        }),
        upgrade_url: request.server.services.config.upgradeUrl ?? null,
      };
    },
  );
}
