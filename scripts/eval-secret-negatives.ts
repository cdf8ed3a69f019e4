/**
 * `npx tsx scripts/eval-secret-negatives.ts [file.jsonl]`: runs the secret hard negatives in tool calls
 * (datasets/secret-negatives/tool-calls.jsonl: hashes, UUIDs and ids, public keys and fingerprints, vendors' documented
 * example keys, all benign) through the pipeline as tool calls and prints, per split and family, how many are blocked
 * and how many redacted, and which flag types blocked them. Metrics only, never content.
 */
import { resolve } from 'node:path';
import { inspect } from '../src/inspect/pipeline.js';
import { readJsonl } from './lib/jsonl.js';

interface Row {
  id: string;
  text: string;
  family: string;
  split: string;
}

const file = resolve(process.argv[2] ?? 'datasets/secret-negatives/tool-calls.jsonl');
const rows = readJsonl<Row>(file);
const groups = new Map<string, { n: number; blocked: number; redacted: number }>();
const blockers = new Map<string, number>();
for (const row of rows) {
  const v = inspect({ content: row.text, kind: 'tool_call' });
  for (const key of [`${row.split} / all`, `${row.split} / ${row.family}`, `all / all`]) {
    const g = groups.get(key) ?? { n: 0, blocked: 0, redacted: 0 };
    g.n++;
    if (v.action === 'block') g.blocked++;
    if (v.action === 'redact') g.redacted++;
    groups.set(key, g);
  }
  if (v.action === 'block') {
    const top = v.flags.reduce((a, b) => (b.score > a.score ? b : a));
    const key = `${row.split} ${top.layer}:${top.type}`;
    blockers.set(key, (blockers.get(key) ?? 0) + 1);
  }
}
const pct = (a: number, b: number): string => `${((100 * a) / b).toFixed(1)} %`;
console.log('| split / family | n | blocked | redacted |\n| --- | --- | --- | --- |');
for (const [key, g] of [...groups].sort()) console.log(`| ${key} | ${g.n} | ${g.blocked} (${pct(g.blocked, g.n)}) | ${g.redacted} (${pct(g.redacted, g.n)}) |`);
console.log('\nblocking flags:', Object.fromEntries([...blockers].sort((a, b) => b[1] - a[1])));
