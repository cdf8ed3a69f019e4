/**
 * `npx tsx scripts/eval-multilingual.ts [--out dir]`
 * Runs the full pipeline (inspect(), normal mode) over the hand-written multilingual evaluation set
 * (datasets/multilingual-eval/, never trained on) and prints recall and false-positive rate per language and per
 * family. "Caught" means blocked (HIGH or BLOCK in normal mode); a MEDIUM verdict is allowed and counts as a miss,
 * because that is what a user behind the gateway sees. Writes bench/results/eval-multilingual.md.
 * Prints metrics and ids only, never content.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inspect } from '../src/inspect/pipeline.js';
import type { Kind } from '../src/inspect/types.js';
import { readJsonl } from './lib/jsonl.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const evalDir = join(root, 'datasets', 'multilingual-eval');

interface EvalRow {
  id: string;
  text: string;
  label: 'attack' | 'benign';
  kind: Kind;
  lang: string;
  family: string;
}

interface Tally {
  attacks: number;
  caught: number;
  medium: number;
  benign: number;
  falseBlocks: number;
}

const empty = (): Tally => ({ attacks: 0, caught: 0, medium: 0, benign: 0, falseBlocks: 0 });

function add(table: Map<string, Tally>, key: string, row: EvalRow, blocked: boolean, medium: boolean): void {
  const t = table.get(key) ?? empty();
  if (row.label === 'attack') {
    t.attacks += 1;
    if (blocked) t.caught += 1;
    else if (medium) t.medium += 1;
  } else {
    t.benign += 1;
    if (blocked) t.falseBlocks += 1;
  }
  table.set(key, t);
}

const ratio = (n: number, d: number): string => (d === 0 ? '–' : (n / d).toFixed(3));

function render(title: string, table: Map<string, Tally>): string {
  const lines = [`### ${title}`, '', '| group | attacks | recall | MEDIUM (allowed) | benign | FPR |', '| --- | ---: | ---: | ---: | ---: | ---: |'];
  for (const [key, t] of [...table.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    lines.push(`| ${key} | ${t.attacks} | ${ratio(t.caught, t.attacks)} | ${t.medium} | ${t.benign} | ${ratio(t.falseBlocks, t.benign)} |`);
  }
  return lines.join('\n');
}

function main(): void {
  const outIndex = process.argv.indexOf('--out');
  const outDir = outIndex > 0 ? resolve(process.argv[outIndex + 1]) : join(root, 'bench', 'results');
  const rows = [...readJsonl<EvalRow>(join(evalDir, 'attacks.jsonl')), ...readJsonl<EvalRow>(join(evalDir, 'benign.jsonl'))];
  const byLang = new Map<string, Tally>();
  const byFamily = new Map<string, Tally>();
  const total = new Map<string, Tally>();
  const misses: string[] = [];
  const falseBlocks: string[] = [];
  for (const row of rows) {
    const verdict = inspect({ content: row.text, kind: row.kind });
    const blocked = !verdict.allowed;
    const medium = verdict.risk_level === 'MEDIUM';
    add(byLang, row.lang, row, blocked, medium);
    add(byFamily, `${row.label}/${row.family}`, row, blocked, medium);
    add(total, 'all', row, blocked, medium);
    if (row.label === 'attack' && !blocked) misses.push(`${row.id} (${verdict.risk_level})`);
    if (row.label === 'benign' && blocked) falseBlocks.push(`${row.id} (${verdict.flags.map((f) => f.type).join(',')})`);
  }
  const report = [
    '# Multilingual evaluation (datasets/multilingual-eval, never trained on)',
    '',
    `Generated ${new Date().toISOString()} by scripts/eval-multilingual.ts. Caught = blocked in normal mode.`,
    '',
    render('Overall', total),
    '',
    render('Per language', byLang),
    '',
    render('Per family', byFamily),
    '',
    `Missed attacks (${misses.length}): ${misses.join(', ') || 'none'}`,
    '',
    `False blocks (${falseBlocks.length}): ${falseBlocks.join(', ') || 'none'}`,
    '',
  ].join('\n');
  process.stdout.write(report);
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'eval-multilingual.md'), report);
}

main();
