import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import brands from '../../config/brands.json' with { type: 'json' };
import { findLinks } from '../../src/inspect/phishing/extract.js';
import type { PhishingTrainingRow } from '../../src/inspect/phishing/model.js';

/**
 * The phishing model's data, by source. Training reads only the repository: dev-derived phishing rows
 * (the dev set's generator families, one source per family), the eth-phishing-detect lists copied to
 * datasets/phishing/ (real crypto-phishing domains and their legitimate counterparts), links from the
 * READMEs of npm packages (legitimate URLs with paths), and the brands' official domains. URLs found in the benign system prompts are evaluation-only: never trained on.
 */

export const NPM_PHISHING = 'npm:eth-phishing-detect';
export const NPM_LEGIT = 'npm:eth-phishing-detect-whitelist';
export const BRAND_DOMAINS = 'brands:official-domains';
export const DEV_BENIGN = 'dev:legit_url';
export const README_LINKS = 'npm:readme-links';
export const CURATED = 'curated:phishing-shapes';

function lines(path: string): string[] {
  return readFileSync(path, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
}

/** The first scheme URL of a message (dev phishing rows carry exactly one). */
export function firstUrl(text: string): string | undefined {
  return findLinks(text, 8).find((l) => l.context === 'text')?.url;
}

export function devRows(root: string): PhishingTrainingRow[] {
  const rows: PhishingTrainingRow[] = [];
  for (const line of lines(join(root, 'datasets/dev-derived.jsonl'))) {
    const r = JSON.parse(line) as { text: string; label: string; category: string; subcategory?: string };
    if (r.category !== 'phishing') continue;
    const url = firstUrl(r.text);
    if (!url) continue;
    const family = (r.subcategory ?? 'unknown').split('/')[0];
    rows.push(r.label === 'attack' ? { url, label: 1, source: `dev:${family}` } : { url, label: 0, source: DEV_BENIGN });
  }
  return rows;
}

export function npmRows(root: string): PhishingTrainingRow[] {
  const dir = join(root, 'datasets/phishing');
  return [
    ...lines(join(dir, 'eth-phishing-detect-blacklist.txt')).map((d): PhishingTrainingRow => ({ url: `https://${d}/`, label: 1, source: NPM_PHISHING })),
    ...lines(join(dir, 'eth-phishing-detect-whitelist.txt')).map((d): PhishingTrainingRow => ({ url: `https://${d}/`, label: 0, source: NPM_LEGIT })),
    ...lines(join(dir, 'benign-readme-urls.txt')).map((url): PhishingTrainingRow => ({ url, label: 0, source: README_LINKS })),
  ];
}

/** Written for Bastion from public phishing-kit reporting (APWG, PhishTank write-ups): shapes the other sources lack, with benign twins. */
export function curatedRows(root: string): PhishingTrainingRow[] {
  return lines(join(root, 'datasets/phishing/curated-shapes.jsonl')).map((line) => {
    const r = JSON.parse(line) as { url: string; label: 0 | 1 };
    return { url: r.url, label: r.label, source: CURATED };
  });
}

export function brandRows(): PhishingTrainingRow[] {
  return brands.brands.flatMap((b) => b.domains.map((d): PhishingTrainingRow => ({ url: `https://${d}/`, label: 0, source: BRAND_DOMAINS })));
}

export function trainingRows(root: string): PhishingTrainingRow[] {
  return [...devRows(root), ...npmRows(root), ...curatedRows(root), ...brandRows()];
}

/** Benign URLs of the system and role prompts (evaluation only), one per distinct URL. */
export function systemPromptUrls(path: string): string[] {
  const urls = new Set<string>();
  for (const line of lines(path)) {
    const { text } = JSON.parse(line) as { text: string };
    for (const link of findLinks(text, 256)) if (link.context !== 'bare') urls.add(link.url);
  }
  return [...urls].sort();
}
