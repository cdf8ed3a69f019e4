import { ADDON_NAMES, PLAN_NAMES, getAddon, getPlan, tierRank } from '../config/plans.js';
import type { ImpactReport } from './report.js';
import type { TierRoi } from './impact.js';

export interface Recommendation {
  tier: string;
  price_usd_per_month: number | null;
  reason: string;
}

/**
 * The cheapest tier (config/plans.json order is price order) whose monthly quota holds the volume and which may carry
 * every add-on the customer needs (its min_tier). Enterprise (unlimited) always fits.
 */
export function recommendTier(monthlyRequests: number, needs: readonly string[]): Recommendation {
  for (const need of needs) if (!ADDON_NAMES.includes(need)) throw new Error(`unknown add-on ${need}`);
  const minRank = Math.max(0, ...needs.map((n) => tierRank(getAddon(n).minTier)));
  for (const tier of PLAN_NAMES) {
    const plan = getPlan(tier);
    if (tierRank(tier) < minRank) continue;
    if (plan.monthlyQuota !== null && monthlyRequests > plan.monthlyQuota) continue;
    const quota = plan.monthlyQuota === null ? 'unlimited requests' : `${plan.monthlyQuota} requests a month`;
    const features = needs.length ? `; carries ${needs.join(', ')}` : '';
    return { tier, price_usd_per_month: plan.priceUsd, reason: `cheapest tier whose quota (${quota}) holds ${Math.ceil(monthlyRequests)} requests a month${features}` };
  }
  throw new Error('config/plans.json has no tier that fits');
}

const money = (x: number | null) => (x === null ? 'on request' : `$${x.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`);
// Customer-supplied text never reaches the Markdown: only numbers, enum values and our own strings do.
const cell = (s: string) => s.replace(/[|\n\r]/g, ' ');

/** The customer-facing proposal in Markdown: headline numbers, breakdown with derivations, tiers, inputs and assumptions. */
export function proposalMarkdown(report: ImpactReport, recommended: Recommendation, tierRoi: TierRoi): string {
  const m = report.monthly;
  const lines = [
    `# Bastion AI security gateway: ROI proposal (${report.industry})`,
    '',
    '## Headline',
    '',
    `- Recommended tier: **${recommended.tier}** (${money(recommended.price_usd_per_month)} a month): ${cell(recommended.reason)}.`,
    `- Expected monthly benefit: **${money(m.total_benefit_usd)}** (loss avoided ${money(m.loss_avoided_usd)}, inference cost saved ${money(m.inference_cost_saved_usd)}).`,
    `- ROI on ${tierRoi.tier}: ${tierRoi.roi === null ? 'not computed (' + cell(tierRoi.formula) + ')' : `${(tierRoi.roi * 100).toFixed(1)} %`}; payback: ${tierRoi.payback_months === null ? 'n/a' : `${tierRoi.payback_months} months of benefit per month of price`}.`,
    '',
    '## Monthly breakdown',
    '',
    '| Figure | Value | Derivation |',
    '| --- | --- | --- |',
    ...report.derivation.map((f) => `| ${f.name} | ${f.unit === 'usd' ? money(f.value) : f.value} | ${cell(f.formula)} |`),
    '',
    `## ${report.projection.length}-year projection (${tierRoi.tier})`,
    '',
    '| Year | Benefit | Cost | Net | Cumulative net |',
    '| --- | --- | --- | --- | --- |',
    ...tierRoi.projection.map((y) => `| ${y.year} | ${money(y.benefit_usd)} | ${money(y.cost_usd)} | ${money(y.net_usd)} | ${money(y.cumulative_net_usd)} |`),
    '',
    '## Tiers',
    '',
    '| Tier | Price / month | Holds the volume | ROI |',
    '| --- | --- | --- | --- |',
    ...report.roi_by_tier.map((t) => `| ${t.tier} | ${money(t.price_usd_per_month)} | ${t.fits_volume ? 'yes' : 'no'} | ${t.roi === null ? 'n/a' : `${(t.roi * 100).toFixed(1)} %`} |`),
    '',
    '## Inputs',
    '',
    ...report.inputs.map((i) => `- ${i.name} = ${String(i.value)} (${i.origin}): ${cell(i.detail)}`),
    '',
    '## Sources',
    '',
    ...report.sources.map((c) => `- ${c.name} = ${c.value}: ${cell(c.source)}`),
    '',
    '## Assumptions',
    '',
    ...report.assumptions.map((c) => `- ${c.name} = ${c.value}: ${cell(c.source)}`),
    ...(report.notes.length ? ['', '## Notes', '', ...report.notes.map((n) => `- ${cell(n)}`)] : []),
    '',
  ];
  return lines.join('\n');
}
