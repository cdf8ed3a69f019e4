import type { FastifyReply, FastifyRequest } from 'fastify';
import { getPlan, upgradeLink } from '../../config/plans.js';
import { BastionError } from '../../errors.js';
import { rateLimitHeaders, type PolicyState } from '../../limits/headers.js';
import { monthWindowSeconds } from '../../limits/month.js';
import type { WindowResult } from '../../limits/window.js';

const MINUTE_MS = 60_000;
export const MINUTE_POLICY = 'requests-per-minute';
export const MONTH_POLICY = 'requests-per-month';

/** The policies that apply to the authenticated principal, none consumed yet. */
function policiesOf(request: FastifyRequest): PolicyState[] {
  const rate = request.principal?.ratePerMinute ?? request.server.services.config.defaultRatePerMinute;
  const policies: PolicyState[] = [{ name: MINUTE_POLICY, quota: rate, windowSeconds: 60 }];
  const monthly = request.principal ? getPlan(request.principal.plan).monthlyQuota : null;
  if (monthly !== null) policies.push({ name: MONTH_POLICY, quota: monthly, windowSeconds: monthWindowSeconds(Date.now()) });
  return policies;
}

/** onRequest (after authenticate): consumes the key's sliding window unless the route says `limit: 'none'`. */
export async function limitPerKey(request: FastifyRequest, _reply?: FastifyReply): Promise<void> {
  const minute = keyWindow(request);
  if (!minute) return;
  settleMinute(minute, await request.server.services.window.consume(`key:${request.principal!.keyId}`, minute.quota, MINUTE_MS));
}

/**
 * The same, answered at once when the window lives in this process (embedded mode); false when it must be awaited
 * (Redis), and the caller then uses `limitPerKey`.
 */
export function limitPerKeyNow(request: FastifyRequest): boolean {
  const { window } = request.server.services;
  if (!window.consumeNow) return false;
  const minute = keyWindow(request);
  if (minute) settleMinute(minute, window.consumeNow(`key:${request.principal!.keyId}`, minute.quota, MINUTE_MS));
  return true;
}

/** The request's policies, set on it; the minute policy when this request consumes it. */
function keyWindow(request: FastifyRequest): PolicyState | undefined {
  request.rateState = policiesOf(request);
  if (request.routeOptions.config.limit === 'none' || !request.principal) return undefined;
  return request.rateState[0];
}

function settleMinute(minute: PolicyState, result: WindowResult): void {
  minute.consumed = { remaining: result.remaining, resetMs: result.resetMs, denied: !result.allowed };
  if (!result.allowed) throw new BastionError('RATE_LIMITED');
}

/** onRequest for /demo/filter: a fixed per-client-IP window (SPEC §8), no key. */
export async function limitPerIp(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const quota = request.server.services.config.demoRatePerMinute;
  const state: PolicyState = { name: MINUTE_POLICY, quota, windowSeconds: 60 };
  request.rateState = [state];
  const result = await request.server.services.window.consume(`ip:${request.ip}`, quota, MINUTE_MS);
  state.consumed = { remaining: result.remaining, resetMs: result.resetMs, denied: !result.allowed };
  if (!result.allowed) throw new BastionError('RATE_LIMITED');
}

/**
 * Counts `units` against the tenant's monthly quota (POST /filter: 1, /filter/batch: one per item).
 * A request that does not fit whole is refused with a long Retry-After and an upgrade URL.
 */
export async function consumeMonthlyQuota(request: FastifyRequest, units: number): Promise<void> {
  const month = request.rateState?.find((p) => p.name === MONTH_POLICY);
  if (!month || !request.principal) return;
  const result = await request.server.services.quota.consume(request.principal.tenantId, units, month.quota);
  month.consumed = { remaining: result.remaining, resetMs: result.resetMs, denied: !result.allowed };
  if (!result.allowed) {
    throw new BastionError('QUOTA_EXCEEDED', {
      extra: { plan: request.principal.plan, quota: result.quota, used: result.used, ...upgradeLink(request.server.services.config.upgradeUrl) },
    });
  }
}

/** onRequest for routes that consume nothing but still publish the policy (/health, SPEC §8 rule 1). */
export async function publishPolicy(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  request.rateState ??= policiesOf(request);
}

/** onSend: the rate-limit fields are written once, from the state the hooks left, on every response. */
export function writeRateLimitHeaders(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void): void {
  const state = request.rateState ?? policiesOf(request);
  reply.headers(rateLimitHeaders(state));
  done(null, payload);
}

declare module 'fastify' {
  interface FastifyRequest {
    rateState?: PolicyState[];
  }
  interface FastifyContextConfig {
    /** `key` (default): the API key's sliding window; `none`: publish the policy only (/health). */
    limit?: 'key' | 'none';
    /** `public`: no API key (probes, /openapi.json, /demo/filter). `oidc`: /ext/*, authenticated by the route's own hook. */
    /** `payment`: POST /mcp, which takes an API key or a payment proof in its own handler (src/mcp/admission.ts). */
    auth?: 'apiKey' | 'public' | 'oidc' | 'payment';
  }
}
