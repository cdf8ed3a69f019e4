// Removes near-duplicates from the authored batches (datasets/authored/batch-*.jsonl): a row whose character
// 5-gram Jaccard similarity is ≥ 0.5 with any evaluation or training text, or with an earlier authored row, is
// dropped. Prints what was removed and appends it (ids only) to datasets/authored/removed.jsonl.
//
//   npx tsx scripts/authored/dedupe.ts [--check]     (--check: report only, exit 1 when something would go)
import { appendFileSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readJsonl } from '../lib/jsonl.js';
import { AUTHORED_DIR, authoredFiles, type AuthoredRow } from './rows.js';
import { findNearDuplicates, type Doc } from './shingles.js';

export const THRESHOLD = 0.5;

const jsonlIn = (dir: string) =>
  existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.jsonl') && !f.endsWith('.meta.jsonl')).map((f) => join(dir, f)) : [];

/** Every labelled set the authored rows must not repeat: evaluation sets first, then training sources. */
export function referenceFiles(shared = '../shared'): string[] {
  const sources = existsSync(join(shared, 'data'))
    ? readdirSync(join(shared, 'data')).map((d) => join(shared, 'data', d, 'data.jsonl')).filter((f) => existsSync(f))
    : [];
  return [
    join(shared, 'eval', 'dev.jsonl'),
    ...jsonlIn(join(shared, 'eval', 'extra')),
    ...jsonlIn('datasets/multilingual-eval'),
    ...sources,
    ...jsonlIn('datasets/curated'),
    'datasets/benign-handwritten.jsonl',
  ].filter((f) => existsSync(f));
}

function main() {
  const check = process.argv.includes('--check');
  const files = referenceFiles();
  const reference: Doc[] = files.flatMap((f) => readJsonl<Doc>(f).map((r) => ({ id: `${f}#${r.id}`, text: r.text })));
  const batches = authoredFiles().map((f) => ({ file: f, rows: readJsonl<AuthoredRow>(f) }));
  const rows = batches.flatMap((b) => b.rows);
  console.log(`reference: ${reference.length} texts from ${files.length} files; authored: ${rows.length} rows`);
  const found = findNearDuplicates(reference, rows, THRESHOLD);
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const d of found) {
    console.log(`- ${d.id} ~ ${d.match} (${d.similarity.toFixed(2)}): ${byId.get(d.id)!.text.slice(0, 80).replace(/\n/g, ' ')}`);
  }
  console.log(`${found.length} near-duplicate row(s)${check ? '' : ' removed'}`);
  if (check) {
    process.exitCode = found.length ? 1 : 0;
    return;
  }
  const gone = new Set(found.map((d) => d.id));
  for (const b of batches) {
    const kept = b.rows.filter((r) => !gone.has(r.id));
    if (kept.length !== b.rows.length) writeFileSync(b.file, kept.map((r) => JSON.stringify(r)).join('\n') + '\n');
  }
  if (found.length) {
    appendFileSync(join(AUTHORED_DIR, 'removed.jsonl'), found.map((d) => JSON.stringify(d)).join('\n') + '\n');
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main();
