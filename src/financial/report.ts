import { CONSTANTS, breachCost, type Cited, type Industry } from './constants.js';
import { ROI_TIERS, monthlyImpact, tierRoi, type Figure, type MonthlyImpact, type TierRoi } from './impact.js';
import type { InputUsed, ResolvedTraffic } from './traffic.js';

export interface ReportRequest {
  tenantId: string;
  industry: Industry;
  /** undefined: the default of config/financial.json (an assumption, reported as such). */
  costPerReq?: number;
  resolved: ResolvedTraffic;
}

export interface ImpactReport {
  tenant_id: string;
  industry: Industry;
  currency: 'USD';
  period: 'month';
  monthly: Record<string, number>;
  derivation: Figure[];
  roi_by_tier: TierRoi[];
  projection: { year: number; benefit_usd: number }[];
  inputs: InputUsed[];
  sources: Cited[];
  assumptions: Cited[];
  notes: string[];
}

const count = (x: number) => Math.round(x * 100) / 100;

/** Everything /financial/impact answers, from resolved traffic: pure. */
export function impactReport(req: ReportRequest): ImpactReport & { impact: MonthlyImpact } {
  const costPerReq = req.costPerReq ?? CONSTANTS.defaultCostPerReq.value;
  const { traffic } = req.resolved;
  const impact = monthlyImpact(traffic, req.industry, costPerReq);
  const cost = breachCost(req.industry);
  const used: Cited[] = [...impact.constants, ...(req.costPerReq === undefined ? [CONSTANTS.defaultCostPerReq] : []), ...req.resolved.assumptions, CONSTANTS.daysPerMonth, CONSTANTS.projectionYears];
  const unique = [...new Map(used.map((c) => [c.name, c])).values()];
  const inputs: InputUsed[] = [
    { name: 'industry', value: req.industry, origin: 'stated', detail: `average breach cost ${cost.value} USD (${cost.name})${cost.note ? `; ${cost.note}` : ''}` },
    req.costPerReq === undefined
      ? { name: 'cost_per_req', value: costPerReq, origin: 'default', detail: CONSTANTS.defaultCostPerReq.source }
      : { name: 'cost_per_req', value: costPerReq, origin: 'stated', detail: 'USD of LLM inference per forwarded request, from the `cost_per_req` parameter' },
    ...req.resolved.inputs,
  ];
  const yearly = Math.round(impact.totalBenefitUsd * 12 * 100) / 100;
  return {
    tenant_id: req.tenantId,
    industry: req.industry,
    currency: 'USD',
    period: 'month',
    monthly: {
      requests: count(traffic.requests),
      blocked: count(traffic.blocked),
      shadow_banned: count(traffic.shadowBanned),
      pii_intercepted: count(traffic.pii),
      secrets_intercepted: count(traffic.secrets),
      interceptions: count(impact.interceptions),
      exposure: Math.round(impact.exposure * 1e6) / 1e6,
      incidents_prevented: Math.round(impact.incidentsPreventedPerMonth * 1e8) / 1e8,
      loss_avoided_usd: impact.lossAvoidedUsd,
      inference_cost_saved_usd: impact.inferenceCostSavedUsd,
      inference_cost_saved_by_shadow_ban_usd: impact.inferenceCostSavedByShadowBanUsd,
      total_benefit_usd: impact.totalBenefitUsd,
    },
    derivation: impact.derivation,
    roi_by_tier: ROI_TIERS.map((tier) => tierRoi(impact, tier, traffic.requests)),
    projection: Array.from({ length: CONSTANTS.projectionYears.value }, (_, i) => ({ year: i + 1, benefit_usd: yearly })),
    inputs,
    sources: unique.filter((c) => c.kind === 'source'),
    assumptions: unique.filter((c) => c.kind === 'assumption'),
    notes: req.resolved.notes,
    impact,
  };
}
