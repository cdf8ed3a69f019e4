import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { checkEntitlement } from '../auth/entitlements.js';
import { routeRequirement, upgradeLink, type Requirement } from '../config/plans.js';
import { BastionError } from '../errors.js';

/**
 * SPEC §5 rules 2–3 as a route hook: 403 PLAN_TOO_LOW when the tenant's tier is below the route's (or the add-on's)
 * tier, 402 ADDON_REQUIRED naming the add-on when the plan is eligible but the add-on is not purchased.
 * It runs after authentication (portal bearer or API key) and reads the entitlements that authentication loaded.
 */
export function requireEntitlement(requirement: Requirement): onRequestAsyncHookHandler {
  return async function entitlementGuard(request: FastifyRequest) {
    const subject = request.portal ?? request.principal;
    if (!subject) throw new BastionError('PORTAL_UNAUTHENTICATED');
    const outcome = checkEntitlement(subject, requirement);
    if (outcome.ok) return;
    const upgrade = upgradeLink(request.server.services.config.upgradeUrl);
    if (outcome.error === 'PLAN_TOO_LOW') {
      throw new BastionError('PLAN_TOO_LOW', {
        message: `Your plan (${outcome.currentTier}) does not include this route: it needs ${outcome.requiredTier} or above.`,
        extra: { required_tier: outcome.requiredTier, current_tier: outcome.currentTier, ...upgrade },
      });
    }
    throw new BastionError('ADDON_REQUIRED', {
      message: `This route needs the "${outcome.addon}" add-on (${outcome.description}). Buy it to use this route.`,
      extra: { addon: outcome.addon, addon_description: outcome.description, ...upgrade },
    });
  };
}

const asArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/**
 * Applies the `route_entitlements` of config/plans.json to every route registered afterwards, by method and URL
 * pattern (HEAD follows GET), so a route declared there is guarded the moment it exists. Also documents 402/403.
 */
export function applyRouteEntitlements(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const methods = asArray(route.method).map((m) => (m === 'HEAD' ? 'GET' : m));
    const requirement = methods.map((m) => routeRequirement(m, route.url)).find((r) => r !== undefined);
    if (!requirement) return;
    // Route-level onRequest hooks run after the scope's authentication hook and before body validation.
    route.onRequest = [...asArray(route.onRequest), requireEntitlement(requirement)];
    const needs = [requirement.tier && `plan ${requirement.tier}+`, requirement.addon && `add-on ${requirement.addon}`].filter(Boolean).join(', ');
    const schema = (route.schema ?? {}) as { response?: Record<string, unknown>; description?: string };
    route.schema = {
      ...schema,
      description: [schema.description, `Needs ${needs}.`].filter(Boolean).join(' '),
      response: {
        ...schema.response,
        403: { description: 'Plan tier too low (PLAN_TOO_LOW): upgrade; do not retry' },
        ...(requirement.addon ? { 402: { description: `Add-on "${requirement.addon}" not purchased (ADDON_REQUIRED): the body names it` } } : {}),
      },
    };
  });
}
