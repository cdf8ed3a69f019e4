import type { FastifyReply, FastifyRequest } from 'fastify';
import { getPlan } from '../config/plans.js';
import type { AttemptLimit } from '../auth/portal-policy.js';
import { rateLimitHeaders, type PolicyState } from '../limits/headers.js';
import { monthWindowSeconds } from '../limits/month.js';

// The data plane's policy names (SPEC §8), so a client reads one vocabulary on both listeners.
const MINUTE_POLICY = 'requests-per-minute';
const MONTH_POLICY = 'requests-per-month';

/** Called by the attempt windows before they count: the response then publishes the window that applies. */
export function noteAttemptPolicy(request: FastifyRequest, limit: AttemptLimit): void {
  const state = (request.rateState ??= []);
  if (!state.some((p) => p.name === limit.name)) state.push({ name: limit.name, quota: limit.limit, windowSeconds: limit.windowSeconds });
}

/**
 * Without an attempt window, the admin listener publishes the caller's data-plane policies, as the data plane's own
 * /health does: the plan's default per-key minute rate and monthly quota once the portal knows the tenant, else the
 * process default minute rate.
 */
function tenantPolicies(request: FastifyRequest): PolicyState[] {
  const plan = request.portal ? getPlan(request.portal.plan) : undefined;
  const rate = plan?.defaultRatePerMinute ?? request.server.services.config.defaultRatePerMinute;
  const policies: PolicyState[] = [{ name: MINUTE_POLICY, quota: rate, windowSeconds: 60 }];
  if (plan && plan.monthlyQuota !== null) policies.push({ name: MONTH_POLICY, quota: plan.monthlyQuota, windowSeconds: monthWindowSeconds(Date.now()) });
  return policies;
}

/**
 * onSend of the admin listener: `RateLimit-Policy` on every response (SPEC §8). A 429 from an attempt window already
 * carries the full set with its counters and is left as it is; any other response publishes the policy only, never
 * the counters, so a successful login says nothing about how many attempts remain.
 */
export async function publishAdminRateLimitPolicy(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  if (reply.hasHeader('ratelimit-policy')) return payload;
  // An API-key route (src/admin/api-key-auth.ts) consumed the key's window: its counters are published as on the data plane.
  if (request.principal && request.rateState) {
    reply.headers(rateLimitHeaders(request.rateState));
    return payload;
  }
  const noted = request.rateState?.length ? request.rateState.map(({ name, quota, windowSeconds }) => ({ name, quota, windowSeconds })) : undefined;
  reply.headers(rateLimitHeaders(noted ?? tenantPolicies(request)));
  return payload;
}
