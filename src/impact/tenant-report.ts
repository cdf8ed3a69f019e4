import { CONSTANTS } from '../financial/constants.js';
import { monthlyImpact, usd, type Figure } from '../financial/impact.js';
import { liveTraffic } from '../financial/traffic.js';
import { familyBreakdown } from '../neutralizer/breakdown.js';
import type { FlagCount } from '../storage/daily-flags.js';
import { emptyCounts, type DayCounts } from '../storage/daily-stats.js';

export interface TenantImpactInput {
  tenantId: string;
  /** UTC days of the period, oldest first. */
  days: readonly string[];
  rows: ReadonlyMap<string, DayCounts>;
  flags: readonly FlagCount[];
  quota: { plan: string; used: number; limit: number | null; resetsAt: string };
}

/** Why each count goes to one family, said once in every report. */
const BREAKDOWN_NOTE =
  'The daily aggregates keep each flag\'s layer and category: each (layer, category) count goes to the family it primarily indicates (src/neutralizer/breakdown.ts). A request can raise several flags, so flag counts can exceed blocks.';

/**
 * The tenant impact report (SPEC §2, §4.7), pure over the period's day rows, flag totals and quota state. Dollar
 * figures use the financial formulas on the period's traffic: the monthly figure × period / days_per_month for the
 * incident term; blocked × cost_per_req for inference.
 */
export function tenantImpactReport(input: TenantImpactInput) {
  const total = emptyCounts();
  const series: number[] = [];
  for (const day of input.days) {
    const row = input.rows.get(day) ?? emptyCounts();
    for (const k of Object.keys(total) as (keyof DayCounts)[]) total[k] += row[k];
    series.push(row.blocked);
  }
  const period = input.days.length;
  const from = input.days[0];
  const to = input.days[period - 1];
  const costPerReq = CONSTANTS.defaultCostPerReq.value;
  const monthly = liveTraffic({ totals: total, days: period, from, to }, undefined).traffic;
  const impact = monthlyImpact(monthly, 'saas', costPerReq);
  const share = period / CONSTANTS.daysPerMonth.value;
  const loss = usd(impact.lossAvoidedUsd * share);
  const inference = usd(total.blocked * costPerReq);
  const derivation: Figure[] = [
    ...impact.derivation.filter((f) => ['interceptions', 'exposure', 'incidents_prevented', 'loss_avoided_usd'].includes(f.name)).map((f) => ({ ...f, name: `monthly_${f.name}` })),
    { name: 'loss_avoided_usd', value: loss, unit: 'usd', formula: `monthly loss avoided ${impact.lossAvoidedUsd} × ${period} / ${CONSTANTS.daysPerMonth.value} days` },
    { name: 'inference_cost_saved_usd', value: inference, unit: 'usd', formula: `blocked ${total.blocked} × cost_per_req ${costPerReq}` },
    { name: 'total_usd', value: usd(loss + inference), unit: 'usd', formula: `loss_avoided_usd ${loss} + inference_cost_saved_usd ${inference}` },
  ];
  const cited = [...impact.constants, CONSTANTS.defaultCostPerReq, CONSTANTS.daysPerMonth];
  const breakdown = familyBreakdown(input.flags);
  return {
    tenant_id: input.tenantId,
    period_days: period,
    from,
    to,
    requests: total.requests,
    blocks: total.blocked,
    shadow_banned: total.shadow_banned,
    pii_intercepts: total.pii,
    secret_intercepts: total.secrets,
    dollars_saved: {
      total_usd: usd(loss + inference),
      loss_avoided_usd: loss,
      inference_cost_saved_usd: inference,
      industry: 'saas',
      cost_per_req: costPerReq,
      derivation,
      sources: cited.filter((c) => c.kind === 'source'),
      assumptions: [
        ...cited.filter((c) => c.kind === 'assumption'),
        { name: 'industry', value: 0, kind: 'assumption' as const, source: 'Assumption: the global average breach cost (industry saas); GET /financial/impact?industry= gives other industries' },
      ],
    },
    threat_breakdown: { families: breakdown.families, unattributed: breakdown.unattributed, note: BREAKDOWN_NOTE },
    sparkline: { metric: 'blocks', from, values: series },
    quota: {
      plan: input.quota.plan,
      used: input.quota.used,
      limit: input.quota.limit,
      remaining: input.quota.limit === null ? null : Math.max(0, input.quota.limit - input.quota.used),
      resets_at: input.quota.resetsAt,
    },
  };
}

export type TenantImpactReport = ReturnType<typeof tenantImpactReport>;
