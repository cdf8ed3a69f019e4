import catalogue from '../../config/plans.json' with { type: 'json' };

export interface Plan {
  name: string;
  monthlyQuota: number | null;
  defaultRatePerMinute: number;
  maxRatePerMinute: number;
  /** List price per month in USD; null = price on request (enterprise). */
  priceUsd: number | null;
}

interface RawPlan {
  monthly_quota: number | null;
  default_rate_per_minute: number;
  max_rate_per_minute: number;
  price_usd: number | null;
}

export const PLAN_NAMES: readonly string[] = catalogue.tiers;
export const DEFAULT_PLAN = catalogue.default_plan;
/** `{ upgrade_url }` for a refusal when the operator set BASTION_UPGRADE_URL, else nothing: no placeholder is ever served. */
export const upgradeLink = (url: string | undefined): { upgrade_url?: string } => (url ? { upgrade_url: url } : {});

/** The last tier (unlimited quota): what a self-hosted gateway's own tenants hold, with every add-on. */
export const OWNER_PLAN = catalogue.tiers[catalogue.tiers.length - 1];

export function getPlan(name: string): Plan {
  const raw = (catalogue.plans as Record<string, RawPlan>)[name];
  if (!raw) throw new Error(`unknown plan ${name}`);
  return {
    name,
    monthlyQuota: raw.monthly_quota,
    defaultRatePerMinute: raw.default_rate_per_minute,
    maxRatePerMinute: raw.max_rate_per_minute,
    priceUsd: raw.price_usd,
  };
}

export function isPlan(name: string): boolean {
  return PLAN_NAMES.includes(name);
}

/** Tier order for SPEC §5 rule 2. */
export function tierRank(name: string): number {
  return PLAN_NAMES.indexOf(name);
}

export interface Addon {
  name: string;
  description: string;
  /** Lowest tier on which the add-on can be used (SPEC §5 rule 2 applies first). */
  minTier: string;
}

/** What a route needs (SPEC §5 rules 2–3). */
export interface Requirement {
  tier?: string;
  addon?: string;
}

const ADDONS = catalogue.addons as Record<string, { description: string; min_tier: string }>;
const ROUTES = catalogue.route_entitlements as Record<string, Requirement>;

export const ADDON_NAMES: readonly string[] = Object.keys(ADDONS);

/**
 * The plan and add-ons of a tenant the gateway creates itself (the quickstart's `default`, BASTION_API_KEYS tenants,
 * `keys create --create-tenant`): under BASTION_PLANS=owner every capability and no quota (whoever runs the gateway
 * owns it); under `resell` the catalogue's default_plan, and the operator grants the rest.
 */
export function gatewayTenantPlan(plans: 'owner' | 'resell'): { plan: string; addons: string[] } {
  return plans === 'owner' ? { plan: OWNER_PLAN, addons: [...ADDON_NAMES] } : { plan: DEFAULT_PLAN, addons: [] };
}

export function getAddon(name: string): Addon {
  const raw = ADDONS[name];
  if (!raw) throw new Error(`unknown add-on ${name}`);
  return { name, description: raw.description, minTier: raw.min_tier };
}

/** The requirement declared in config/plans.json for `METHOD /path` (Fastify route pattern), if any. */
export function routeRequirement(method: string, url: string): Requirement | undefined {
  return ROUTES[`${method.toUpperCase()} ${url}`];
}

/** Every declared route requirement, for validation and docs. */
export function routeRequirements(): Record<string, Requirement> {
  return { ...ROUTES };
}

// A typo in the catalogue must stop the start, not silently open or close a route.
for (const [route, req] of Object.entries(ROUTES)) {
  if (req.tier !== undefined && !isPlan(req.tier)) throw new Error(`config/plans.json: ${route} names unknown tier ${req.tier}`);
  if (req.addon !== undefined && !ADDONS[req.addon]) throw new Error(`config/plans.json: ${route} names unknown add-on ${req.addon}`);
}
for (const [name, addon] of Object.entries(ADDONS)) {
  if (!isPlan(addon.min_tier)) throw new Error(`config/plans.json: add-on ${name} names unknown tier ${addon.min_tier}`);
}
