import { Type } from 'typebox';
import { ADDON_NAMES } from '../../config/plans.js';
import { INDUSTRIES } from '../../financial/constants.js';
import { ROI_TIERS } from '../../financial/impact.js';

/** Wire shapes of /financial/* (SPEC §4.7). Every parameter bounded; other values → 422. */

/** Documented on routes that take `tenant_id`. */
export const Forbidden = { description: 'tenant_id names another tenant (BASTION_ERR_TENANT_FORBIDDEN): the same answer whether it exists or not' };
export const TenantId = Type.String({ pattern: '^[A-Za-z0-9_.-]{1,64}$', description: "Optional: must be the credential's own tenant (any other → 403)" });
const Industry = Type.Enum([...INDUSTRIES], { default: 'saas', description: 'Selects the average breach cost (config/financial.json)' });
const Requests = Type.Integer({ minimum: 1, maximum: 10_000_000_000, description: "Monthly request volume, 1 to 10^10. Omitted: the tenant's last 30 days scaled to a month (live=true)" });
const CostPerReq = Type.Number({ minimum: 0, maximum: 10, description: 'USD of LLM inference per request, 0 to 10. Omitted: 0.002 (the default, reported as such)' });
const Live = Type.Boolean({ default: true, description: "true: the tenant's recorded statistics; false: estimate from `requests` and assumed shares" });
const Tier = Type.Enum([...ROI_TIERS], { default: 'professional' });

export const ImpactQuery = Type.Object(
  { industry: Type.Optional(Industry), requests: Type.Optional(Requests), cost_per_req: Type.Optional(CostPerReq), live: Type.Optional(Live), tenant_id: Type.Optional(TenantId) },
  { additionalProperties: false },
);
export const RoiQuery = Type.Object(
  { industry: Type.Optional(Industry), tier: Type.Optional(Tier), requests: Type.Optional(Requests), cost_per_req: Type.Optional(CostPerReq), live: Type.Optional(Live), tenant_id: Type.Optional(TenantId) },
  { additionalProperties: false },
);
export const CostSavedQuery = Type.Object({ tenant_id: Type.Optional(TenantId) }, { additionalProperties: false });
export const ProposalBody = Type.Object(
  {
    industry: Type.Optional(Industry),
    requests: Type.Optional(Requests),
    cost_per_req: Type.Optional(CostPerReq),
    live: Type.Optional(Live),
    needs: Type.Optional(Type.Array(Type.Enum([...ADDON_NAMES]), { maxItems: ADDON_NAMES.length, uniqueItems: true, description: 'Add-ons the customer needs: the recommended tier must be able to carry them' })),
  },
  { additionalProperties: false },
);

const Cited = Type.Object({ name: Type.String(), value: Type.Number(), kind: Type.Union([Type.Literal('source'), Type.Literal('assumption')]), source: Type.String() });
const Input = Type.Object({
  name: Type.String(),
  value: Type.Union([Type.Number(), Type.String(), Type.Boolean(), Type.Null()]),
  origin: Type.Union([Type.Literal('stated'), Type.Literal('recorded'), Type.Literal('default'), Type.Literal('assumption')]),
  detail: Type.String(),
});
const Figure = Type.Object({ name: Type.String(), value: Type.Number(), unit: Type.String(), formula: Type.String({ description: 'How the value was computed, numbers substituted' }) });
const NullableNumber = Type.Union([Type.Number(), Type.Null()]);
const Year = Type.Object({ year: Type.Integer(), benefit_usd: Type.Number(), cost_usd: NullableNumber, net_usd: NullableNumber, cumulative_net_usd: NullableNumber });
export const TierRoi = Type.Object({
  tier: Type.String(),
  price_usd_per_month: NullableNumber,
  monthly_quota: NullableNumber,
  fits_volume: Type.Boolean(),
  roi: Type.Union([Type.Number(), Type.Null()], { description: '(yearly benefit − yearly price) / yearly price; null for a free or on-request price' }),
  payback_months: NullableNumber,
  projection: Type.Array(Year),
  formula: Type.String(),
});
const Explained = {
  inputs: Type.Array(Input, { description: 'Every input used and where it came from (stated, recorded, default, assumption)' }),
  sources: Type.Array(Cited, { description: 'Published figures used, with their source' }),
  assumptions: Type.Array(Cited, { description: "Bastion's own modelling assumptions used" }),
  notes: Type.Array(Type.String()),
};
const ImpactFields = {
  tenant_id: Type.String(),
  industry: Type.String(),
  currency: Type.Literal('USD'),
  period: Type.Literal('month'),
  monthly: Type.Record(Type.String(), Type.Number()),
  derivation: Type.Array(Figure),
  ...Explained,
};
export const ImpactResponse = Type.Object({ ...ImpactFields, roi_by_tier: Type.Array(TierRoi), projection: Type.Array(Type.Object({ year: Type.Integer(), benefit_usd: Type.Number() })) });
export const RoiResponse = Type.Object({ ...ImpactFields, roi: TierRoi });
export const CostSavedResponse = Type.Object({
  tenant_id: Type.String(),
  from: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
  to: Type.String({ format: 'date' }),
  blocked_requests: Type.Integer(),
  shadow_banned_requests: Type.Integer(),
  cost_per_req: Type.Number(),
  cost_saved_usd: Type.Number({ description: 'Every blocked request was never forwarded: blocked × cost_per_req' }),
  cost_saved_by_shadow_ban_usd: Type.Number({ description: 'The shadow-banned part of it: shadow-banned × cost_per_req' }),
  derivation: Type.Array(Figure),
  ...Explained,
});
export const ProposalResponse = Type.Object({
  recommended_tier: Type.Object({ tier: Type.String(), price_usd_per_month: NullableNumber, reason: Type.String() }),
  headline: Type.Object({ monthly_benefit_usd: Type.Number(), yearly_benefit_usd: Type.Number(), roi: Type.Union([Type.Number(), Type.Null()]), payback_months: NullableNumber }),
  impact: ImpactResponse,
  markdown: Type.String({ description: 'The same proposal rendered as Markdown' }),
});
