import raw from '../../config/financial.json' with { type: 'json' };

/** One constant of the formulas with where it comes from (config/financial.json). */
export interface Cited {
  name: string;
  value: number;
  kind: 'source' | 'assumption';
  source: string;
}

export const INDUSTRIES = ['fintech', 'healthcare', 'ecommerce', 'saas', 'government', 'education', 'legal'] as const;
export type Industry = (typeof INDUSTRIES)[number];

interface RawCited {
  value: number;
  kind: string;
  source: string;
}

function cited(name: string, entry: RawCited): Cited {
  // A typo in the catalogue must stop the start, not produce a silently wrong dollar figure.
  if (!Number.isFinite(entry.value) || entry.value < 0) throw new Error(`config/financial.json: ${name} must be a finite non-negative number`);
  if (entry.kind !== 'source' && entry.kind !== 'assumption') throw new Error(`config/financial.json: ${name} kind must be source or assumption`);
  if (!entry.source) throw new Error(`config/financial.json: ${name} needs its source`);
  return { name, value: entry.value, kind: entry.kind, source: entry.source };
}

const costs = raw.breach_cost_usd as Record<string, RawCited>;
const industries = raw.industries as unknown as Record<string, { breach_cost: string; note?: string }>;

export interface FinancialConstants {
  aiIncidentRate: Cited;
  dataCompromiseShare: Cited;
  mitigationEfficacy: Cited;
  fullExposure: Cited;
  daysPerMonth: Cited;
  defaultCostPerReq: Cited;
  defaultMonthlyRequests: Cited;
  estimateRates: { blocked: Cited; shadowBanned: Cited; pii: Cited; secrets: Cited };
  projectionYears: Cited;
}

export const CONSTANTS: FinancialConstants = {
  aiIncidentRate: cited('ai_incident_rate_per_year', raw.ai_incident_rate_per_year),
  dataCompromiseShare: cited('ai_incident_data_compromise_share', raw.ai_incident_data_compromise_share),
  mitigationEfficacy: cited('mitigation_efficacy', raw.mitigation_efficacy),
  fullExposure: cited('attacks_for_full_exposure', raw.attacks_for_full_exposure),
  daysPerMonth: cited('days_per_month', raw.days_per_month),
  defaultCostPerReq: cited('default_cost_per_req_usd', raw.default_cost_per_req_usd),
  defaultMonthlyRequests: cited('default_monthly_requests', raw.default_monthly_requests),
  estimateRates: {
    blocked: cited('estimate_rates.blocked', raw.estimate_rates.blocked),
    shadowBanned: cited('estimate_rates.shadow_banned', raw.estimate_rates.shadow_banned),
    pii: cited('estimate_rates.pii', raw.estimate_rates.pii),
    secrets: cited('estimate_rates.secrets', raw.estimate_rates.secrets),
  },
  projectionYears: cited('projection_years', raw.projection_years),
};

for (const [name, c] of [['mitigation_efficacy', CONSTANTS.mitigationEfficacy], ['ai_incident_rate_per_year', CONSTANTS.aiIncidentRate], ['ai_incident_data_compromise_share', CONSTANTS.dataCompromiseShare]] as const) {
  if (c.value > 1) throw new Error(`config/financial.json: ${name} is a share and must be ≤ 1`);
}
if (CONSTANTS.fullExposure.value <= 0) throw new Error('config/financial.json: attacks_for_full_exposure must be > 0');

/** The average breach cost that applies to an industry, with its citation and, when it is the global fallback, why. */
export function breachCost(industry: Industry): Cited & { note?: string } {
  const mapping = industries[industry];
  if (!mapping || !costs[mapping.breach_cost]) throw new Error(`config/financial.json: industry ${industry} has no breach cost`);
  return { ...cited(`breach_cost_usd.${mapping.breach_cost}`, costs[mapping.breach_cost]), ...(mapping.note ? { note: mapping.note } : {}) };
}

for (const industry of INDUSTRIES) breachCost(industry);
