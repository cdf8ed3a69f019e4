import fc from 'fast-check';
import t from 'tap';
import { INDUSTRIES, type Industry } from '../../src/financial/constants.js';
import { ROI_TIERS, monthlyImpact, tierRoi } from '../../src/financial/impact.js';
import { recommendTier } from '../../src/financial/proposal.js';
import { impactReport } from '../../src/financial/report.js';
import { estimatedTraffic, liveTraffic, type MonthlyTraffic } from '../../src/financial/traffic.js';
import { emptyCounts } from '../../src/storage/daily-stats.js';

const SEED = 20_261_124;
const industry = fc.constantFrom(...INDUSTRIES);
const volume = fc.integer({ min: 1, max: 10_000_000_000 });
const share = fc.double({ min: 0, max: 1, noNaN: true });
const costPerReq = fc.double({ min: 0, max: 10, noNaN: true });

function trafficOf(requests: number, blocked: number, banned: number, pii: number, secrets: number): MonthlyTraffic {
  return { requests, blocked: requests * blocked, shadowBanned: requests * blocked * banned, pii: requests * pii, secrets: requests * secrets };
}
const traffic = fc.tuple(volume, share, share, share, share).map(([r, b, s, p, k]) => trafficOf(r, b, s, p, k));

const dollarFigures = (i: ReturnType<typeof monthlyImpact>) => [i.lossAvoidedUsd, i.inferenceCostSavedUsd, i.inferenceCostSavedByShadowBanUsd, i.totalBenefitUsd];

t.test('every figure is finite and non-negative, and every derivation is shown', async (t) => {
  fc.assert(
    fc.property(traffic, industry, costPerReq, (tr, ind, c) => {
      const impact = monthlyImpact(tr, ind, c);
      const all = [...dollarFigures(impact), impact.interceptions, impact.exposure, impact.incidentsPreventedPerMonth];
      if (!all.every((x) => Number.isFinite(x) && x >= 0)) return false;
      if (impact.exposure > 1) return false;
      return impact.derivation.every((f) => Number.isFinite(f.value) && f.formula.length > 0);
    }),
    { numRuns: 500, seed: SEED },
  );
});

t.test('figures never fall when volume or the blocked share grows', async (t) => {
  fc.assert(
    fc.property(volume, volume, share, share, share, share, industry, costPerReq, (v1, v2, b, s, p, k, ind, c) => {
      const [lo, hi] = v1 <= v2 ? [v1, v2] : [v2, v1];
      const a = dollarFigures(monthlyImpact(trafficOf(lo, b, s, p, k), ind, c));
      const z = dollarFigures(monthlyImpact(trafficOf(hi, b, s, p, k), ind, c));
      return a.every((x, i) => x <= z[i]);
    }),
    { numRuns: 500, seed: SEED },
  );
  fc.assert(
    fc.property(volume, share, share, share, share, share, industry, costPerReq, (v, b1, b2, s, p, k, ind, c) => {
      const [lo, hi] = b1 <= b2 ? [b1, b2] : [b2, b1];
      const a = dollarFigures(monthlyImpact(trafficOf(v, lo, s, p, k), ind, c));
      const z = dollarFigures(monthlyImpact(trafficOf(v, hi, s, p, k), ind, c));
      return a.every((x, i) => x <= z[i]);
    }),
    { numRuns: 500, seed: SEED },
  );
});

t.test('loss avoided has a ceiling that no volume lifts, and ROI is finite and never below −100 %', async (t) => {
  const ceiling = (ind: Industry) => monthlyImpact(trafficOf(10_000_000_000, 1, 1, 1, 1), ind, 0).lossAvoidedUsd;
  fc.assert(
    fc.property(traffic, industry, costPerReq, fc.constantFrom(...ROI_TIERS), (tr, ind, c, tier) => {
      const impact = monthlyImpact(tr, ind, c);
      if (impact.lossAvoidedUsd > ceiling(ind)) return false;
      const roi = tierRoi(impact, tier, tr.requests);
      if (roi.roi === null) return tier === 'enterprise';
      // ROI ≤ what the largest benefit the formulas allow (ceiling + every request's inference) returns on this price.
      const maxBenefit = (ceiling(ind) + tr.requests * c) * 12;
      return Number.isFinite(roi.roi) && roi.roi >= -1 && roi.roi <= maxBenefit / (roi.price_usd_per_month! * 12);
    }),
    { numRuns: 500, seed: SEED },
  );
  for (const ind of INDUSTRIES) t.ok(ceiling(ind) < 100_000, `${ind}: loss avoided never exceeds $${ceiling(ind)} a month`);
});

// The product Bastion replaces reported $11.8 B a month for this tenant: every monthly dollar figure here stays ≤ $100,000.
t.test('a 1 M-request/month SaaS tenant at the default cost per request (live=false): no monthly figure above $100,000', async (t) => {
  for (const ind of INDUSTRIES) {
    const report = impactReport({ tenantId: 'acme', industry: ind, resolved: estimatedTraffic(1_000_000) });
    const dollars = Object.entries(report.monthly).filter(([k]) => k.endsWith('_usd'));
    t.ok(dollars.length >= 4, `${ind}: dollar figures present`);
    for (const [name, value] of dollars) t.ok(value <= 100_000, `${ind}: ${name} = $${value}`);
    for (const tier of report.roi_by_tier) for (const y of tier.projection) t.ok(y.benefit_usd / 12 <= 100_000, `${ind}/${tier.tier} year ${y.year}`);
    const names = report.derivation.map((f) => f.name);
    for (const name of ['loss_avoided_usd', 'inference_cost_saved_usd', 'total_benefit_usd']) t.ok(names.includes(name), `${ind}: derivation of ${name}`);
    t.ok(report.inputs.some((i) => i.name === 'cost_per_req' && i.origin === 'default'), 'the default cost per request is reported as a default');
    t.ok(report.assumptions.some((a) => a.name === 'mitigation_efficacy'), 'assumptions are listed as assumptions');
    t.ok(report.sources.some((s) => s.source.includes('Cost of a Data Breach Report 2024')), 'the breach cost is cited');
  }
  const saas = impactReport({ tenantId: 'acme', industry: 'saas', resolved: estimatedTraffic(1_000_000) });
  t.equal(saas.monthly.inference_cost_saved_usd, 20, '10,000 assumed blocks × $0.002');
});

t.test('live traffic: the recorded window scales to a month, a stated volume takes the recorded shares, no traffic claims nothing', async (t) => {
  const totals = { ...emptyCounts(), requests: 3000, blocked: 300, shadow_banned: 30, pii: 60, secrets: 6 };
  const scaled = liveTraffic({ totals, days: 30, from: '2026-01-01', to: '2026-01-30' }, undefined);
  t.equal(Math.round(scaled.traffic.requests), 3044, '3000 × 30.436875 / 30');
  t.equal(scaled.assumptions.length, 0, 'no assumed shares with recorded traffic');
  const stated = liveTraffic({ totals, days: 30, from: '2026-01-01', to: '2026-01-30' }, 1_000_000);
  t.equal(stated.traffic.blocked, 100_000, 'recorded 10 % blocked share applied to the stated volume');
  const empty = liveTraffic({ totals: emptyCounts(), days: 30, from: '2026-01-01', to: '2026-01-30' }, undefined);
  const report = impactReport({ tenantId: 'acme', industry: 'saas', resolved: empty });
  t.equal(report.monthly.total_benefit_usd, 0, 'no traffic, no claim');
  t.match(report.notes[0], /nothing is claimed/);
});

t.test('the recommended tier is the cheapest whose quota and add-ons fit', async (t) => {
  t.equal(recommendTier(500, []).tier, 'free');
  t.equal(recommendTier(50_000, []).tier, 'startup');
  t.equal(recommendTier(1_000_000, []).tier, 'professional');
  t.equal(recommendTier(1_000_001, []).tier, 'enterprise');
  t.equal(recommendTier(500, ['agents']).tier, 'professional', 'agents needs professional');
  t.equal(recommendTier(500, ['tunnels']).tier, 'enterprise');
});
