import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import { CONSTANTS, type Industry } from '../../financial/constants.js';
import { usd, tierRoi } from '../../financial/impact.js';
import { proposalMarkdown, recommendTier } from '../../financial/proposal.js';
import { impactReport } from '../../financial/report.js';
import { estimatedTraffic, liveTraffic, type ResolvedTraffic } from '../../financial/traffic.js';
import { totalsBetween, utcDay } from '../../storage/daily-stats.js';
import { apiKeyAuth, scopedTenant } from '../api-key-auth.js';
import { CostSavedQuery, Forbidden, CostSavedResponse, ImpactQuery, ImpactResponse, ProposalBody, ProposalResponse, RoiQuery, RoiResponse } from './schemas.js';

const DAY_MS = 86_400_000;
/** SPEC §4.7: `requests` omitted → the tenant's last 30 days (today included) scaled to a month. */
export const LIVE_WINDOW_DAYS = 30;
const config = { security: 'apiKey', rateLimited: true } as const;

interface TrafficParams {
  requests?: number;
  live?: boolean;
}

async function resolveTraffic(request: FastifyRequest, tenantId: string, params: TrafficParams): Promise<ResolvedTraffic> {
  if (params.live === false) return estimatedTraffic(params.requests);
  const now = Date.now();
  const from = utcDay(now - (LIVE_WINDOW_DAYS - 1) * DAY_MS);
  const to = utcDay(now);
  const totals = await totalsBetween(request.server.services.storage.db, tenantId, from, to);
  return liveTraffic({ totals, days: LIVE_WINDOW_DAYS, from, to }, params.requests);
}

/** The report without its internal impact object. */
function wire<T extends { impact: unknown }>(report: T): Omit<T, 'impact'> {
  const { impact: _impact, ...rest } = report;
  return rest;
}

/**
 * Financial impact (SPEC §4.7) on the admin listener, X-API-Key. Thin: parameters → traffic (recorded aggregates or
 * estimate) → the pure formulas of src/financial/. Every answer lists the inputs it used, the published sources and
 * the assumptions, and shows each figure's derivation (docs/FINANCIAL.md).
 */
export async function financialRoutes(app: FastifyInstance): Promise<void> {
  await app.register(apiKeyAuth);

  app.get<{ Querystring: Static<typeof ImpactQuery> }>(
    '/impact',
    { config, schema: { summary: 'Monthly impact breakdown, 3-year projection and ROI by tier', querystring: ImpactQuery, response: { 200: ImpactResponse, 403: Forbidden } } },
    async (request) => {
      const tenantId = scopedTenant(request, request.query.tenant_id);
      const q = request.query;
      const resolved = await resolveTraffic(request, tenantId, q);
      return wire(impactReport({ tenantId, industry: (q.industry ?? 'saas') as Industry, costPerReq: q.cost_per_req, resolved }));
    },
  );

  app.get<{ Querystring: Static<typeof RoiQuery> }>(
    '/roi',
    { config, schema: { summary: 'ROI, payback and 3-year projection for one tier', querystring: RoiQuery, response: { 200: RoiResponse, 403: Forbidden } } },
    async (request) => {
      const tenantId = scopedTenant(request, request.query.tenant_id);
      const q = request.query;
      const resolved = await resolveTraffic(request, tenantId, q);
      const report = impactReport({ tenantId, industry: (q.industry ?? 'saas') as Industry, costPerReq: q.cost_per_req, resolved });
      const { roi_by_tier: _all, projection: _p, ...rest } = wire(report);
      return { ...rest, roi: tierRoi(report.impact, q.tier ?? 'professional', resolved.traffic.requests) };
    },
  );

  app.get<{ Querystring: Static<typeof CostSavedQuery> }>(
    '/cost-saved',
    { config, schema: { summary: 'Cumulative LLM inference cost saved: blocked requests, shadow-banned ones among them, never forwarded', querystring: CostSavedQuery, response: { 200: CostSavedResponse, 403: Forbidden } } },
    async (request) => {
      const tenantId = scopedTenant(request, request.query.tenant_id);
      const to = utcDay(Date.now());
      const totals = await totalsBetween(app.services.storage.db, tenantId, '0000-01-01', to);
      const c = CONSTANTS.defaultCostPerReq.value;
      const banned = Math.min(totals.shadow_banned, totals.blocked);
      const saved = usd(totals.blocked * c);
      const byBan = usd(banned * c);
      return {
        tenant_id: tenantId,
        from: null,
        to,
        blocked_requests: totals.blocked,
        shadow_banned_requests: banned,
        cost_per_req: c,
        cost_saved_usd: saved,
        cost_saved_by_shadow_ban_usd: byBan,
        derivation: [
          { name: 'cost_saved_usd', value: saved, unit: 'usd', formula: `blocked ${totals.blocked} × cost_per_req ${c}` },
          { name: 'cost_saved_by_shadow_ban_usd', value: byBan, unit: 'usd', formula: `shadow-banned ${banned} × cost_per_req ${c}` },
        ],
        inputs: [
          { name: 'recorded_window', value: `..${to}`, origin: 'recorded' as const, detail: "every recorded UTC day of the tenant's daily aggregates" },
          { name: 'cost_per_req', value: c, origin: 'default' as const, detail: CONSTANTS.defaultCostPerReq.source },
        ],
        sources: [],
        assumptions: [CONSTANTS.defaultCostPerReq],
        notes: ['A blocked request is never forwarded to the model, so its inference is not paid; a shadow-banned request is always blocked.'],
      };
    },
  );

  app.post<{ Body: Static<typeof ProposalBody> }>(
    '/generate-proposal',
    { config, schema: { summary: 'Customer-facing ROI proposal: impact breakdown, recommended tier, headline numbers (JSON and Markdown)', body: ProposalBody, response: { 200: ProposalResponse } } },
    async (request) => {
      const tenantId = scopedTenant(request);
      const b = request.body;
      const resolved = await resolveTraffic(request, tenantId, b);
      const report = impactReport({ tenantId, industry: (b.industry ?? 'saas') as Industry, costPerReq: b.cost_per_req, resolved });
      const recommended = recommendTier(resolved.traffic.requests, b.needs ?? []);
      const roi = tierRoi(report.impact, recommended.tier, resolved.traffic.requests);
      const impact = wire(report);
      return {
        recommended_tier: recommended,
        headline: { monthly_benefit_usd: report.impact.totalBenefitUsd, yearly_benefit_usd: usd(report.impact.totalBenefitUsd * 12), roi: roi.roi, payback_months: roi.payback_months },
        impact,
        markdown: proposalMarkdown(impact, recommended, roi),
      };
    },
  );
}
