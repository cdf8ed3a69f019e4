import catalogue from '../../config/plans.json' with { type: 'json' };

export interface Plan {
  name: string;
  monthlyQuota: number | null;
  defaultRatePerMinute: number;
  maxRatePerMinute: number;
}

interface RawPlan {
  monthly_quota: number | null;
  default_rate_per_minute: number;
  max_rate_per_minute: number;
}

export const PLAN_NAMES: readonly string[] = catalogue.tiers;
export const DEFAULT_PLAN = catalogue.default_plan;
export const UPGRADE_URL = catalogue.upgrade_url;

export function getPlan(name: string): Plan {
  const raw = (catalogue.plans as Record<string, RawPlan>)[name];
  if (!raw) throw new Error(`unknown plan ${name}`);
  return {
    name,
    monthlyQuota: raw.monthly_quota,
    defaultRatePerMinute: raw.default_rate_per_minute,
    maxRatePerMinute: raw.max_rate_per_minute,
  };
}

export function isPlan(name: string): boolean {
  return PLAN_NAMES.includes(name);
}

/** Tier order for SPEC §5 rule 2. */
export function tierRank(name: string): number {
  return PLAN_NAMES.indexOf(name);
}
