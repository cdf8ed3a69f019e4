import { existsSync, readFileSync, readdirSync } from 'node:fs';
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
  /** The repository file the page is rendered from: its relative links are resolved against it. */
  source?: string;
}

/** A static file the pages use (the stylesheet, the docs' images). */
export interface SiteAsset {
  path: string;
  type: string;
  body: Buffer;
}

const ROOT = new URL('../../', import.meta.url);

function read(file: string): string | undefined {
  const url = new URL(file, ROOT);
  return existsSync(url) ? readFileSync(url, 'utf8') : undefined;
}

// The order a newcomer reads them in; the rest follow alphabetically.
const FIRST = ['CONFIGURATION.md', 'API.md', 'CONSOLE.md', 'DEPLOYMENT.md', 'EVOLUTION.md', 'MEASUREMENTS.md', 'DEVELOPING.md', 'ARCHITECTURE.md'];

/**
 * The documents /docs serves, by slug: the README and every docs/*.md, listed once at start (no path from a request
 * ever reaches the file system). The slug is the file name in lower case; the title its first heading.
 */
export const DOCS: Readonly<Record<string, { file: string; title: string }>> = Object.fromEntries([
  ['readme', { file: 'README.md', title: 'README' }],
  ...readdirSync(new URL('docs/', ROOT))
    .filter((name) => name.endsWith('.md'))
    .sort((a, b) => docOrder(a) - docOrder(b) || a.localeCompare(b))
    .map((name) => [name.slice(0, -3).toLowerCase(), { file: `docs/${name}`, title: titleOf(read(`docs/${name}`) ?? '', name) }]),
]);

function docOrder(name: string): number {
  const i = FIRST.indexOf(name);
  return i === -1 ? FIRST.length : i;
}

function titleOf(markdown: string, fallback: string): string {
  return /^# (.+)$/m.exec(markdown)?.[1].trim() ?? fallback;
}

const IMAGE_TYPES: Record<string, string> = { '.png': 'image/png', '.svg': 'image/svg+xml', '.jpg': 'image/jpeg' };

/** The stylesheet and every image under docs/img/, read once at start. */
export function buildAssets(): SiteAsset[] {
  const assets: SiteAsset[] = [{ path: '/site.css', type: 'text/css', body: readFileSync(new URL('config/site/site.css', ROOT)) }];
  const images = new URL('docs/img/', ROOT);
  if (existsSync(images)) {
    for (const name of readdirSync(images).sort()) {
      const type = IMAGE_TYPES[name.slice(name.lastIndexOf('.'))];
      if (type) assets.push({ path: `/docs/img/${name}`, type, body: readFileSync(new URL(name, images)) });
    }
  }
  return assets;
}

/** Repository path → the site path serving it, for rewriting the docs' relative links. */
export function servedPaths(assets: readonly SiteAsset[]): Map<string, string> {
  const served = new Map<string, string>();
  for (const [slug, doc] of Object.entries(DOCS)) served.set(doc.file, `/docs/${slug}`);
  for (const asset of assets) if (asset.path.startsWith('/docs/img/')) served.set(asset.path.slice(1), asset.path);
  return served;
}

export function buildPages(): SitePage[] {
  const pages: SitePage[] = [];
  const landing = read('config/site/landing.md');
  if (landing) pages.push({ path: '/', title: 'Bastion', markdown: landing, source: 'config/site/landing.md' });
  const docs = Object.entries(DOCS).flatMap(([slug, doc]) => {
    const markdown = read(doc.file);
    return markdown ? [{ path: `/docs/${slug}`, title: doc.title, markdown, source: doc.file }] : [];
  });
  pages.push({ path: '/docs', title: 'Documentation', markdown: docsIndex(docs) }, ...docs);
  pages.push({ path: '/pricing', title: 'Pricing', markdown: pricing() });
  const security = read('config/site/security.md');
  if (security) pages.push({ path: '/security', title: 'Security and privacy', markdown: security, source: 'config/site/security.md' });
  return pages;
}

function docsIndex(docs: SitePage[]): string {
  return ['# Documentation', '', ...docs.map((d) => `- [${d.title}](${d.path})`), '', 'The customer console is at [/console/](/console/).', ''].join('\n');
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
    'These plans are for operators who resell the gateway (`BASTION_PLANS=resell`). On a gateway you run yourself',
    '(`BASTION_PLANS=owner`, the default) its own tenants hold the last plan with every add-on and no monthly quota',
    '([configuration](/docs/configuration#plans)). Your plan, quota and add-ons are on the billing page of the',
    '[console](/console/); the operator changes them (`POST /admin/billing/grant`, see the [API reference](/docs/api)).',
    '',
  ];
  return lines.join('\n');
}
