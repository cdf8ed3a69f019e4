import { ADDON_NAMES, getAddon, tierRank, type Requirement } from '../config/plans.js';

/** Who is asking: the tenant's plan and purchased add-ons. */
export interface Entitled {
  plan: string;
  addons: readonly string[];
}

export type EntitlementOutcome =
  | { ok: true }
  | { ok: false; error: 'PLAN_TOO_LOW'; requiredTier: string; currentTier: string }
  | { ok: false; error: 'ADDON_REQUIRED'; addon: string; description: string };

/**
 * SPEC §5 rules 2–3, pure. The tier comes first: a plan below the route's tier (or below the add-on's minimum tier)
 * is 403 whatever it bought; an eligible plan without the add-on is 402 naming it.
 */
export function checkEntitlement(subject: Entitled, requirement: Requirement): EntitlementOutcome {
  const addon = requirement.addon ? getAddon(requirement.addon) : undefined;
  const tiers = [requirement.tier, addon?.minTier].filter((t): t is string => t !== undefined);
  const requiredTier = tiers.reduce<string | undefined>((a, b) => (a === undefined || tierRank(b) > tierRank(a) ? b : a), undefined);
  if (requiredTier !== undefined && tierRank(subject.plan) < tierRank(requiredTier)) {
    return { ok: false, error: 'PLAN_TOO_LOW', requiredTier, currentTier: subject.plan };
  }
  if (addon && !subject.addons.includes(addon.name)) {
    return { ok: false, error: 'ADDON_REQUIRED', addon: addon.name, description: addon.description };
  }
  return { ok: true };
}

/** An add-on whose minimum tier (config/plans.json) is above `plan`: granting it would leave the tenant inconsistent. */
export function addonTierShortfall(plan: string, addon: string): { addon: string; minTier: string; currentTier: string } | undefined {
  const { minTier } = getAddon(addon);
  return tierRank(plan) < tierRank(minTier) ? { addon, minTier, currentTier: plan } : undefined;
}

/**
 * Splits add-ons into those `plan` may hold and those that lapse under it (a downgrade or a revoked tier), so a
 * stored tenant never holds an add-on its tier does not allow.
 */
export function partitionAddons(plan: string, addons: readonly string[]): { kept: string[]; lapsed: string[] } {
  const kept: string[] = [];
  const lapsed: string[] = [];
  for (const addon of new Set(addons)) {
    // An add-on no longer in the catalogue grants nothing any more: it lapses too rather than failing the change.
    (!ADDON_NAMES.includes(addon) || addonTierShortfall(plan, addon) ? lapsed : kept).push(addon);
  }
  return { kept: kept.sort(), lapsed: lapsed.sort() };
}
