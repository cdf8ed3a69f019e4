import { PLAN_NAMES, getPlan } from '../config/plans.js';
import { CONSTANTS, breachCost, type Cited, type Industry } from './constants.js';
import type { MonthlyTraffic } from './traffic.js';

/** One reported figure and how it was computed, with the numbers substituted (docs/FINANCIAL.md). */
export interface Figure {
  name: string;
  value: number;
  unit: 'usd' | 'count' | 'share' | 'incidents';
  formula: string;
}

export interface MonthlyImpact {
  interceptions: number;
  exposure: number;
  incidentsPreventedPerMonth: number;
  lossAvoidedUsd: number;
  inferenceCostSavedUsd: number;
  inferenceCostSavedByShadowBanUsd: number;
  totalBenefitUsd: number;
  derivation: Figure[];
  /** The cited constants the figures used (sources and assumptions). */
  constants: Cited[];
}

export const usd = (x: number) => Math.round(x * 100) / 100;
const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;
const fmt = (x: number) => (Number.isInteger(x) ? String(x) : String(round(x, 6)));

/**
 * The monthly figures, pure over traffic and cited constants:
 *   interceptions        = blocked + pii + secrets
 *   exposure             = min(1, interceptions / attacks_for_full_exposure)
 *   incidents prevented  = ai_incident_rate_per_year × data_compromise_share × mitigation_efficacy × exposure / 12
 *   loss avoided         = incidents prevented × average breach cost (industry)
 *   inference cost saved = blocked × cost_per_req   (blocked requests are never forwarded; shadow-banned ones are blocked)
 * Every figure is finite, non-negative and non-decreasing in volume and in each share; loss avoided is bounded by
 * breach cost × rate × share × efficacy / 12 whatever the volume.
 */
export function monthlyImpact(traffic: MonthlyTraffic, industry: Industry, costPerReq: number): MonthlyImpact {
  const cost = breachCost(industry);
  const { aiIncidentRate: rate, dataCompromiseShare: share, mitigationEfficacy: efficacy, fullExposure } = CONSTANTS;
  const interceptions = traffic.blocked + traffic.pii + traffic.secrets;
  const exposure = Math.min(1, interceptions / fullExposure.value);
  const incidents = (rate.value * share.value * efficacy.value * exposure) / 12;
  const loss = usd(incidents * cost.value);
  const inference = usd(traffic.blocked * costPerReq);
  const byShadowBan = usd(Math.min(traffic.shadowBanned, traffic.blocked) * costPerReq);
  const total = usd(loss + inference);
  const derivation: Figure[] = [
    { name: 'interceptions', value: round(interceptions, 3), unit: 'count', formula: `blocked ${fmt(traffic.blocked)} + personal-data findings ${fmt(traffic.pii)} + credential findings ${fmt(traffic.secrets)}` },
    { name: 'exposure', value: round(exposure, 6), unit: 'share', formula: `min(1, interceptions ${fmt(interceptions)} / attacks_for_full_exposure ${fullExposure.value})` },
    {
      name: 'incidents_prevented',
      value: round(incidents, 8),
      unit: 'incidents',
      formula: `ai_incident_rate_per_year ${rate.value} × ai_incident_data_compromise_share ${share.value} × mitigation_efficacy ${efficacy.value} × exposure ${fmt(exposure)} / 12`,
    },
    { name: 'loss_avoided_usd', value: loss, unit: 'usd', formula: `incidents_prevented ${fmt(incidents)} × ${cost.name} ${cost.value}` },
    { name: 'inference_cost_saved_usd', value: inference, unit: 'usd', formula: `blocked ${fmt(traffic.blocked)} × cost_per_req ${costPerReq}` },
    { name: 'inference_cost_saved_by_shadow_ban_usd', value: byShadowBan, unit: 'usd', formula: `shadow-banned ${fmt(traffic.shadowBanned)} × cost_per_req ${costPerReq} (part of inference_cost_saved_usd)` },
    { name: 'total_benefit_usd', value: total, unit: 'usd', formula: `loss_avoided_usd ${loss} + inference_cost_saved_usd ${inference}` },
  ];
  return {
    interceptions,
    exposure,
    incidentsPreventedPerMonth: incidents,
    lossAvoidedUsd: loss,
    inferenceCostSavedUsd: inference,
    inferenceCostSavedByShadowBanUsd: byShadowBan,
    totalBenefitUsd: total,
    derivation,
    constants: [cost, rate, share, efficacy, fullExposure],
  };
}

export interface YearRow {
  year: number;
  benefit_usd: number;
  cost_usd: number | null;
  net_usd: number | null;
  cumulative_net_usd: number | null;
}

export interface TierRoi {
  tier: string;
  price_usd_per_month: number | null;
  monthly_quota: number | null;
  fits_volume: boolean;
  /** (yearly benefit − yearly price) / yearly price; null when the price is 0 or on request. Never below −1. */
  roi: number | null;
  /** Months of benefit that pay one month's price (< 1: the plan pays for itself within the month); null without a price or a benefit. */
  payback_months: number | null;
  projection: YearRow[];
  formula: string;
}

/** ROI, payback and the flat 3-year projection (assumption: projection_years) of one tier. */
export function tierRoi(impact: MonthlyImpact, tier: string, monthlyRequests: number): TierRoi {
  const plan = getPlan(tier);
  const price = plan.priceUsd;
  const yearlyBenefit = usd(impact.totalBenefitUsd * 12);
  const yearlyCost = price === null ? null : usd(price * 12);
  const roi = yearlyCost === null || yearlyCost === 0 ? null : round((yearlyBenefit - yearlyCost) / yearlyCost, 4);
  const payback = price === null || price === 0 || impact.totalBenefitUsd === 0 ? null : round(price / impact.totalBenefitUsd, 4);
  const projection: YearRow[] = [];
  let cumulative: number | null = 0;
  for (let year = 1; year <= CONSTANTS.projectionYears.value; year++) {
    const net = yearlyCost === null ? null : usd(yearlyBenefit - yearlyCost);
    cumulative = net === null || cumulative === null ? null : usd(cumulative + net);
    projection.push({ year, benefit_usd: yearlyBenefit, cost_usd: yearlyCost, net_usd: net, cumulative_net_usd: cumulative });
  }
  return {
    tier,
    price_usd_per_month: price,
    monthly_quota: plan.monthlyQuota,
    fits_volume: plan.monthlyQuota === null || monthlyRequests <= plan.monthlyQuota,
    roi,
    payback_months: payback,
    projection,
    formula:
      price === null
        ? 'price on request: ROI not computed'
        : price === 0
          ? 'free plan: ROI undefined (no price)'
          : `(12 × total_benefit_usd ${impact.totalBenefitUsd} − 12 × price ${price}) / (12 × price ${price})`,
  };
}

/** SPEC §4.7 tier names for ROI (the paid tiers of config/plans.json). */
export const ROI_TIERS = PLAN_NAMES.filter((t) => t !== 'free');
