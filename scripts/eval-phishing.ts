/**
 * Leave-one-source-out evaluation of the phishing URL judgement (layer 7). For each source (each dev
 * generator family, the dev legitimate URLs, the eth-phishing-detect lists) the model is retrained
 * without it and tested on it. Prints recall per held-out phishing source and false-positive rates on
 * held-out benign sources, for the model alone and for the layer's verdict (named rules or model), and
 * saves bench/results/eval-phishing.md. `--write-model` also writes the model trained on every source
 * to src/inspect/phishing/model.json (deterministic: the same data gives the same file).
 *
 *   npx tsx scripts/eval-phishing.ts [--write-model] [--system-prompts PATH]
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseUrl } from '../src/inspect/phishing/host.js';
import { modelScore, type PhishingModel } from '../src/inspect/phishing/model.js';
import { scoreUrl } from '../src/inspect/phishing/score.js';
import { trainPhishingModel } from '../src/inspect/phishing/train.js';
import { judgeUrl } from '../src/inspect/phishing/verdict.js';
import { BRAND_DOMAINS, CURATED, DEV_BENIGN, NPM_LEGIT, NPM_PHISHING, README_LINKS, systemPromptUrls, trainingRows } from './lib/phishing-data.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const promptsAt = args.indexOf('--system-prompts');
const promptsPath = promptsAt >= 0 ? args[promptsAt + 1] : join(root, '../shared/eval/extra/system-prompts-dev.jsonl');
const HIGH = 0.75;

interface Fold {
  heldOut: string;
  sources: string[];
}

const rows = trainingRows(root);
const sources = [...new Set(rows.map((r) => r.source))].sort();
const folds: Fold[] = [
  ...sources.filter((s) => s.startsWith('dev:') && s !== DEV_BENIGN).map((s) => ({ heldOut: s, sources: [s] })),
  { heldOut: DEV_BENIGN, sources: [DEV_BENIGN] },
  { heldOut: README_LINKS, sources: [README_LINKS] },
  { heldOut: CURATED, sources: [CURATED] },
  { heldOut: 'npm:eth-phishing-detect (both lists)', sources: [NPM_PHISHING, NPM_LEGIT] },
];

function rate(urls: readonly string[], score: (url: string) => number): { n: number; hit: number } {
  let n = 0;
  let hit = 0;
  for (const url of urls) {
    const info = parseUrl(url);
    n++;
    if (info && score(url) >= HIGH) hit++;
  }
  return { n, hit };
}

const scorers = (model: PhishingModel) => ({
  model: (url: string) => {
    const info = parseUrl(url);
    return info ? modelScore(model, info) : 0;
  },
  layer: (url: string) => {
    const info = parseUrl(url);
    return info ? judgeUrl(model, info).score : 0;
  },
  rules: (url: string) => {
    const info = parseUrl(url);
    return info ? scoreUrl(info).score : 0;
  },
});

const fmt = (r: { n: number; hit: number }): string => (r.n === 0 ? '—' : `${(r.hit / r.n).toFixed(3)} (${r.hit}/${r.n})`);
const table: string[] = ['| held out | kind | n | model alone | rules alone | layer (rules or model) |', '| --- | --- | --- | --- | --- | --- |'];
for (const fold of folds) {
  const train = rows.filter((r) => !fold.sources.includes(r.source));
  const model = trainPhishingModel(train);
  const s = scorers(model);
  for (const source of fold.sources) {
    for (const label of [1, 0] as const) {
      const urls = rows.filter((r) => r.source === source && r.label === label).map((r) => r.url);
      if (urls.length === 0) continue;
      const kind = label === 1 ? 'recall' : 'FPR';
      table.push(`| ${source} | ${kind} | ${urls.length} | ${fmt(rate(urls, s.model))} | ${fmt(rate(urls, s.rules))} | ${fmt(rate(urls, s.layer))} |`);
    }
  }
}

// Trained on every source: what ships. Benign URLs nobody trained on: the system and role prompts.
const full = trainPhishingModel(rows);
if (args.includes('--write-model')) {
  writeFileSync(join(root, 'src/inspect/phishing/model.json'), `${JSON.stringify(full, null, 1)}\n`);
  process.stdout.write('wrote src/inspect/phishing/model.json\n');
}
// Imported only now: the layer refuses, at load, a committed model trained on other features than today's.
const { createPhishingLayer } = await import('../src/inspect/layers/phishing.js');
const { createContext } = await import('../src/inspect/pipeline.js');
const s = scorers(full);
const promptUrls = systemPromptUrls(promptsPath);
table.push(`| system-prompt URLs (never trained on) | FPR | ${promptUrls.length} | ${fmt(rate(promptUrls, s.model))} | ${fmt(rate(promptUrls, s.rules))} | ${fmt(rate(promptUrls, s.layer))} |`);
const brandUrls = rows.filter((r) => r.source === BRAND_DOMAINS).map((r) => r.url);
table.push(`| ${BRAND_DOMAINS} (in training) | FPR | ${brandUrls.length} | ${fmt(rate(brandUrls, s.model))} | ${fmt(rate(brandUrls, s.rules))} | ${fmt(rate(brandUrls, s.layer))} |`);

// The whole layer on whole system prompts (every URL, link and exfiltration check), as /filter sees them.
const layer = createPhishingLayer(full);
let prompts = 0;
let flagged = 0;
for (const line of readFileSync(promptsPath, 'utf8').split('\n')) {
  if (!line.trim()) continue;
  const ctx = createContext({ content: (JSON.parse(line) as { text: string }).text, kind: 'prompt' });
  layer.run(ctx);
  prompts++;
  if (ctx.flags.some((f) => f.score >= HIGH)) flagged++;
}

const report = [
  '# Phishing URLs: leave-one-source-out',
  '',
  `Generated by \`npx tsx scripts/eval-phishing.ts\`. Each row: the model retrained without that source, then tested on it (HIGH = score ≥ ${HIGH}).`,
  '"rules alone" are the hand-written named tricks of src/inspect/phishing/score.ts; they were written while looking at the dev',
  'generator families, so their dev rows are not a held-out estimate. The npm rows and the system-prompt URLs are.',
  '',
  ...table,
  '',
  `Whole phishing layer on the benign system and role prompts (${prompts} texts, never trained on): ${flagged} flagged HIGH or above, FPR ${(flagged / prompts).toFixed(4)}.`,
  '',
  `Model trained on every source: ${full.features.length} features, threshold ${full.threshold}.`,
  '',
].join('\n');
process.stdout.write(report);
mkdirSync(join(root, 'bench/results'), { recursive: true });
writeFileSync(join(root, 'bench/results/eval-phishing.md'), report);
