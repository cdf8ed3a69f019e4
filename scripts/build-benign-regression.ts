/**
 * `npx tsx scripts/build-benign-regression.ts [dev.jsonl]` regenerates config/benign-regression.jsonl, the
 * corpus the evolution loop's validation gate checks every candidate rule against: every benign item of the
 * labelled dev set (default ../shared/eval/dev.jsonl) plus datasets/benign-handwritten.jsonl. Deterministic.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readJsonl } from './lib/jsonl.js';

interface Row {
  id: string;
  text: string;
  kind: string;
  label?: string;
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const devPath = resolve(process.argv[2] ?? join(root, '..', 'shared', 'eval', 'dev.jsonl'));
const dev = readJsonl<Row>(devPath).filter((r) => r.label === 'benign');
const handwritten = readJsonl<Row>(join(root, 'datasets', 'benign-handwritten.jsonl'));
const rows = [...dev.map((r) => ({ id: `dev:${r.id}`, kind: r.kind, text: r.text })), ...handwritten.map((r) => ({ id: r.id, kind: r.kind, text: r.text }))];
// In config/, not datasets/: the gate reads it at run time and the image ships config/ only.
const out = join(root, 'config', 'benign-regression.jsonl');
writeFileSync(out, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
const byKind = new Map<string, number>();
for (const r of rows) byKind.set(r.kind, (byKind.get(r.kind) ?? 0) + 1);
console.log(`${rows.length} benign texts → ${out.replace(root + '/', '')} (${[...byKind].map(([k, n]) => `${k} ${n}`).join(', ')})`);
