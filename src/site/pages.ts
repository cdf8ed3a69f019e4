import { existsSync, readFileSync } from 'node:fs';
import catalogue from '../../config/plans.json' with { type: 'json' };

/**
 * The public site pages as Markdown, built once from the repository itself so they never drift: the landing page and
 * the security page from config/site/, the docs from README.md and docs/*.md, pricing from config/plans.json.
 * Pure apart from reading those files at start.
 */
export interface SitePage {
  path: string;
  title: string;
  markdown: string;
}

const ROOT = new URL('../../', import.meta.url);

/** The documents /docs serves, by slug (a fixed list: no path from a request ever reaches the file system). */
export const DOCS: Readonly<Record<string, { file: string; title: string }>> = {
  readme: { file: 'README.md', title: 'README' },
  architecture: { file: 'docs/ARCHITECTURE.md', title: 'Architecture' },
  deployment: { file: 'docs/DEPLOYMENT.md', title: 'Deployment' },
  operations: { file: 'docs/OPERATIONS.md', title: 'Operations: metrics and traces' },
  threats: { file: 'docs/THREATS.md', title: 'Threat catalogue' },
  financial: { file: 'docs/FINANCIAL.md', title: 'Financial impact' },
};

function read(file: string): string | undefined {
  const url = new URL(file, ROOT);
  return existsSync(url) ? readFileSync(url, 'utf8') : undefined;
}

export function buildPages(): SitePage[] {
  const pages: SitePage[] = [];
  const landing = read('config/site/landing.md');
  if (landing) pages.push({ path: '/', title: 'Bastion', markdown: landing });
  const docs = Object.entries(DOCS).flatMap(([slug, doc]) => {
    const markdown = read(doc.file);
    return markdown ? [{ path: `/docs/${slug}`, title: doc.title, markdown }] : [];
  });
  pages.push({ path: '/docs', title: 'Documentation', markdown: docsIndex(docs) }, ...docs);
  pages.push({ path: '/pricing', title: 'Pricing', markdown: pricing() });
  const security = read('config/site/security.md');
  if (security) pages.push({ path: '/security', title: 'Security and privacy', markdown: security });
  return pages;
}

function docsIndex(docs: SitePage[]): string {
  return ['# Documentation', '', ...docs.map((d) => `- [${d.title}](${d.path})`), ''].join('\n');
}

interface PlanRow {
  monthly_quota: number | null;
  default_rate_per_minute: number;
  max_rate_per_minute: number;
  price_usd: number | null;
}

/** config/plans.json as a table: tiers in order, quota, rates, price; then the add-ons with their minimum tier. */
export function pricing(): string {
  const plans = catalogue.plans as Record<string, PlanRow>;
  const addons = catalogue.addons as Record<string, { description: string; min_tier: string }>;
  const num = (n: number) => n.toLocaleString('en-US');
  const lines = [
    '# Pricing',
    '',
    '| Plan | Price per month | Requests per month | Requests per minute per key (default / max) |',
    '| --- | --- | --- | --- |',
    ...catalogue.tiers.map((tier) => {
      const p = plans[tier];
      const price = p.price_usd === null ? 'contact us' : p.price_usd === 0 ? 'free' : `$${num(p.price_usd)}`;
      const quota = p.monthly_quota === null ? 'unlimited' : num(p.monthly_quota);
      return `| ${tier} | ${price} | ${quota} | ${num(p.default_rate_per_minute)} / ${num(p.max_rate_per_minute)} |`;
    }),
    '',
    '## Add-ons',
    '',
    '| Add-on | What it adds | Available from |',
    '| --- | --- | --- |',
    ...Object.entries(addons).map(([name, a]) => `| ${name} | ${a.description} | ${a.min_tier} |`),
    '',
    `Upgrade: ${catalogue.upgrade_url}`,
    '',
  ];
  return lines.join('\n');
}
