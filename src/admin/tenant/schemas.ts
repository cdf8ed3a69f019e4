import { Type } from 'typebox';
import { TenantId } from '../financial/schemas.js';

/** GET /tenant/impact (SPEC §4.7, §8: period 1 to 90 days, default 30). */
export const ImpactQuery = Type.Object(
  {
    period: Type.Optional(Type.Integer({ minimum: 1, maximum: 90, default: 30, description: 'Lookback in UTC days, today included' })),
    format: Type.Optional(Type.Enum(['json', 'svg'], { description: 'svg: the daily blocks sparkline as image/svg+xml (also chosen by Accept: image/svg+xml)' })),
    tenant_id: Type.Optional(TenantId),
  },
  { additionalProperties: false },
);

const Cited = Type.Object({ name: Type.String(), value: Type.Number(), kind: Type.String(), source: Type.String() });
const Figure = Type.Object({ name: Type.String(), value: Type.Number(), unit: Type.String(), formula: Type.String() });
const NullableInt = Type.Union([Type.Integer(), Type.Null()]);

export const ImpactReport = Type.Object({
  tenant_id: Type.String(),
  period_days: Type.Integer(),
  from: Type.String({ format: 'date' }),
  to: Type.String({ format: 'date' }),
  requests: Type.Integer(),
  blocks: Type.Integer(),
  shadow_banned: Type.Integer({ description: 'Blocked because the entity was shadow-banned (part of blocks)' }),
  pii_intercepts: Type.Integer(),
  secret_intercepts: Type.Integer(),
  dollars_saved: Type.Object({
    total_usd: Type.Number(),
    loss_avoided_usd: Type.Number(),
    inference_cost_saved_usd: Type.Number(),
    industry: Type.String(),
    cost_per_req: Type.Number(),
    derivation: Type.Array(Figure),
    sources: Type.Array(Cited),
    assumptions: Type.Array(Cited),
  }),
  threat_breakdown: Type.Object({
    families: Type.Array(Type.Object({ threat_id: Type.String(), name: Type.String(), severity: Type.String(), count: Type.Integer(), from: Type.Array(Type.String()) })),
    unattributed: Type.Integer(),
    note: Type.String(),
  }),
  sparkline: Type.Object({ metric: Type.Literal('blocks'), from: Type.String({ format: 'date' }), values: Type.Array(Type.Integer(), { description: 'One value per UTC day, oldest first' }) }),
  quota: Type.Object({ plan: Type.String(), used: Type.Integer(), limit: NullableInt, remaining: NullableInt, resets_at: Type.String({ format: 'date-time' }) }),
});
