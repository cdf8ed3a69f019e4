/**
 * Builds datasets/phishing/benign-readme-urls.txt: links (not images) in the README files of the installed npm
 * packages, at most 8 per registrable domain, loopback and IP hosts left out. A benign source of real documentation
 * and vendor URLs with paths and queries, for the phishing model. Run once after `npm ci`; the file is committed
 * (another install may hold other README versions, so re-running may change it: retrain after).
 *
 *   npx tsx scripts/lib/phishing-collect-readme-urls.ts
 */
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getDomain } from 'tldts';
import { findLinks } from '../../src/inspect/phishing/extract.js';

const PER_DOMAIN = 8;
const repo = join(dirname(fileURLToPath(import.meta.url)), '../..');

function readmes(dir: string, depth: number, found: string[]): string[] {
  if (depth > 3) return found;
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    let isDir: boolean;
    try {
      isDir = statSync(path).isDirectory();
    } catch {
      continue;
    }
    // Top-level packages and scoped ones only: nested node_modules repeat the same READMEs.
    if (isDir && (name !== 'node_modules' || depth === 0)) readmes(path, depth + 1, found);
    else if (!isDir && /^readme(\.md)?$/i.test(name)) found.push(path);
  }
  return found;
}

function isLocalOrIp(hostname: string): boolean {
  return hostname === 'localhost' || /^[\d.]+$/.test(hostname) || hostname.startsWith('[');
}

const perDomain = new Map<string, number>();
const urls = new Set<string>();
for (const file of readmes(join(repo, 'node_modules'), 0, []).sort()) {
  for (const link of findLinks(readFileSync(file, 'utf8').slice(0, 200_000), 256)) {
    if (link.context === 'bare' || link.context === 'image' || urls.has(link.url)) continue;
    let hostname: string;
    try {
      hostname = new URL(link.url).hostname;
    } catch {
      continue;
    }
    if (isLocalOrIp(hostname)) continue;
    const domain = getDomain(hostname) ?? hostname;
    const seen = perDomain.get(domain) ?? 0;
    if (seen >= PER_DOMAIN) continue;
    perDomain.set(domain, seen + 1);
    urls.add(link.url);
  }
}
const header = `# Links found in the README files of the npm packages installed in node_modules/ (at most ${PER_DOMAIN} per registrable domain), sorted. Legitimate documentation, project and vendor pages.`;
writeFileSync(join(repo, 'datasets/phishing/benign-readme-urls.txt'), `${header}\n${[...urls].sort().join('\n')}\n`);
console.log(`${urls.size} URLs from ${perDomain.size} domains`);
