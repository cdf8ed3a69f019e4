/**
 * npm run eval:mcp-definitions — the MCP tool-definition judge (src/inspect/tool-definitions/) on
 * datasets/mcp-tool-definitions/: recall per attack genre (poisoned definitions judged by judgeToolDefinitions,
 * injected tool results by the pipeline as tool content), false-positive rate per benign package (each package's
 * whole tool list judged as one tools/list, with every other package's tool names as the other servers' tools),
 * development and held-out parts apart (splits.json), a sweep of the one operating point, and a
 * leave-one-package-out view: the operating point chosen on the other packages, the FPR on the one left out.
 * Writes bench/results/eval-mcp-definitions.md. `--misses` lists the ids judged wrongly and why.
 * Target: recall >= 0.95 at FPR <= 0.01.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { inspect } from '../src/inspect/pipeline.js';
import { judgeWithTuning, type ToolDefinitionInput, type ToolDefinitionVerdict } from '../src/inspect/tool-definitions/index.js';
import { DEFAULT_TUNING, type Tuning } from '../src/inspect/tool-definitions/pipeline-verdict.js';
import type { Verdict } from '../src/inspect/types.js';

interface AttackRow extends Partial<ToolDefinitionInput> {
  id: string;
  genre: string;
  text?: string;
}
interface BenignRow extends ToolDefinitionInput {
  source: string;
  version: string;
  license: string;
}

const ROOT = fileURLToPath(new URL('../datasets/mcp-tool-definitions/', import.meta.url));
const OUT = fileURLToPath(new URL('../bench/results/eval-mcp-definitions.md', import.meta.url));
const splits = JSON.parse(readFileSync(ROOT + 'splits.json', 'utf8')) as { attacksDevelopment: string[]; benignDevelopment: string[] };
const showMisses = process.argv.includes('--misses');

const readJsonl = <T>(path: string): T[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);

const verdictCache = new Map<string, Verdict>();
const inspectText = async (text: string): Promise<Verdict> => {
  let v = verdictCache.get(text);
  if (!v) verdictCache.set(text, (v = inspect({ content: text, kind: 'tool_result' })));
  return v;
};

const attackFiles = readdirSync(ROOT + 'attacks').filter((f) => f.endsWith('.jsonl')).sort();
const benignFiles = readdirSync(ROOT + 'benign').filter((f) => f.endsWith('.jsonl')).sort();
const attacks = attackFiles.flatMap((f) => readJsonl<AttackRow>(ROOT + 'attacks/' + f).map((row) => ({ ...row, part: splits.attacksDevelopment.includes(f) ? 'dev' : 'held-out' })));
const benign = benignFiles.map((f) => ({ file: f, part: splits.benignDevelopment.includes(f) ? 'dev' : 'held-out', rows: readJsonl<BenignRow>(ROOT + 'benign/' + f) }));
const allBenignNames = (except: string): string[] => benign.filter((b) => b.file !== except).flatMap((b) => b.rows.map((r) => r.name));
const everyBenignName = benign.flatMap((b) => b.rows.map((r) => r.name));

const asInput = (r: Partial<ToolDefinitionInput>): ToolDefinitionInput => ({
  name: r.name ?? '',
  ...(r.title !== undefined ? { title: r.title } : {}),
  ...(r.description !== undefined ? { description: r.description } : {}),
  ...(r.inputSchema !== undefined ? { inputSchema: r.inputSchema } : {}),
});

async function attackBlocked(row: AttackRow, tuning: Tuning): Promise<{ blocked: boolean; why: string }> {
  if (row.text !== undefined) {
    const v = await inspectText(row.text);
    return { blocked: !v.allowed, why: v.flags.map((f) => f.type).join(',') };
  }
  const [verdict] = await judgeWithTuning([asInput(row)], inspectText, { otherToolNames: everyBenignName }, tuning);
  return { blocked: verdict!.action === 'block', why: describe(verdict!) };
}

function describe(v: ToolDefinitionVerdict): string {
  return v.findings.map((f) => `${f.field}:${f.category}`).join(' ');
}

async function benignVerdicts(file: string, tuning: Tuning): Promise<ToolDefinitionVerdict[]> {
  const pkg = benign.find((b) => b.file === file)!;
  return judgeWithTuning(pkg.rows.map(asInput), inspectText, { otherToolNames: allBenignNames(file) }, tuning);
}

interface Scores {
  recall: Map<string, { part: string; genre: string; tp: number; n: number; misses: string[] }>;
  fp: Map<string, { part: string; fp: number; n: number; misses: string[] }>;
}

async function score(tuning: Tuning): Promise<Scores> {
  const recall: Scores['recall'] = new Map();
  for (const row of attacks) {
    const key = `${row.part}|${row.genre}`;
    const s = recall.get(key) ?? { part: row.part, genre: row.genre, tp: 0, n: 0, misses: [] };
    recall.set(key, s);
    const { blocked, why } = await attackBlocked(row, tuning);
    s.n++;
    if (blocked) s.tp++;
    else s.misses.push(`${row.id} (${why || 'no finding'})`);
  }
  const fp: Scores['fp'] = new Map();
  for (const pkg of benign) {
    const verdicts = await benignVerdicts(pkg.file, tuning);
    const blocked = verdicts.filter((v) => v.action === 'block');
    fp.set(pkg.file, { part: pkg.part, fp: blocked.length, n: verdicts.length, misses: blocked.map((v) => `${v.name}: ${describe(v)}`) });
  }
  return { recall, fp };
}

const ratio = (a: number, b: number): string => (b ? (a / b).toFixed(3) : '-');
const sum = <T>(xs: Iterable<T>, f: (x: T) => number): number => [...xs].reduce((acc, x) => acc + f(x), 0);

const main = await score(DEFAULT_TUNING);
const lines: string[] = [];
const out = (s = ''): void => void (console.log(s), lines.push(s));

out('# MCP tool-definition judge: evaluation');
out();
out(`Operating point: the injection model's block of a field counts alone from score ${DEFAULT_TUNING.modelAloneMinScore} (config/mcp-tool-definitions.json).`);
out('Attack recall: poisoned definitions through `judgeToolDefinitions`, injected results through the pipeline as tool content.');
out();
out('## Recall per attack genre');
out();
out('| part | genre | attacks | recall |');
out('| --- | --- | --- | --- |');
for (const s of [...main.recall.values()].sort((a, b) => a.part.localeCompare(b.part) || a.genre.localeCompare(b.genre))) out(`| ${s.part} | ${s.genre} | ${s.n} | ${ratio(s.tp, s.n)} |`);
for (const part of ['dev', 'held-out']) {
  const rows = [...main.recall.values()].filter((s) => s.part === part);
  out(`| ${part} | **all** | ${sum(rows, (s) => s.n)} | **${ratio(sum(rows, (s) => s.tp), sum(rows, (s) => s.n))}** |`);
}
out();
out('## False-positive rate per benign package (one tools/list each)');
out();
out('| part | package | tools | blocked | FPR |');
out('| --- | --- | --- | --- | --- |');
for (const [file, s] of main.fp) out(`| ${s.part} | ${file.replace(/\.jsonl$/, '')} | ${s.n} | ${s.fp} | ${ratio(s.fp, s.n)} |`);
for (const part of ['dev', 'held-out']) {
  const rows = [...main.fp.values()].filter((s) => s.part === part);
  out(`| ${part} | **all** | ${sum(rows, (s) => s.n)} | ${sum(rows, (s) => s.fp)} | **${ratio(sum(rows, (s) => s.fp), sum(rows, (s) => s.n))}** |`);
}
const totalTools = sum(main.fp.values(), (s) => s.n);
const totalFp = sum(main.fp.values(), (s) => s.fp);
const totalAttacks = sum(main.recall.values(), (s) => s.n);
const totalTp = sum(main.recall.values(), (s) => s.tp);
out();
out(`**Overall: recall ${ratio(totalTp, totalAttacks)} (${totalTp}/${totalAttacks}) at FPR ${ratio(totalFp, totalTools)} (${totalFp}/${totalTools}).** Target: recall >= 0.95 at FPR <= 0.01.`);

// The one operating point, swept; leave-one-package-out: chosen on the other packages, measured on the one left out.
const GRID = [0.75, 0.85, 0.9, 0.95, 0.99, 1.01];
const sweep = new Map<number, Scores>();
for (const t of GRID) sweep.set(t, t === DEFAULT_TUNING.modelAloneMinScore ? main : await score({ modelAloneMinScore: t }));
out();
out('## Operating point sweep (model-alone score from which a block counts; 1.01 = never alone)');
out();
out('| model-alone score | recall dev | recall held-out | FPR all benign |');
out('| --- | --- | --- | --- |');
for (const [t, s] of sweep) {
  const r = (part: string): string => {
    const rows = [...s.recall.values()].filter((x) => x.part === part);
    return ratio(sum(rows, (x) => x.tp), sum(rows, (x) => x.n));
  };
  out(`| ${t} | ${r('dev')} | ${r('held-out')} | ${ratio(sum(s.fp.values(), (x) => x.fp), sum(s.fp.values(), (x) => x.n))} |`);
}
out();
out('## Leave-one-package-out (benign side)');
out();
out('For each package: the lowest operating point whose FPR on the *other* packages is <= 0.01 (best recall on the development attacks), then the FPR on the package left out.');
out();
out('| left out | chosen point | FPR others | FPR left out |');
out('| --- | --- | --- | --- |');
for (const pkg of benign) {
  const fprOthers = (s: Scores): number => {
    const rows = [...s.fp.entries()].filter(([f]) => f !== pkg.file).map(([, x]) => x);
    return sum(rows, (x) => x.fp) / Math.max(1, sum(rows, (x) => x.n));
  };
  const chosen = GRID.find((t) => fprOthers(sweep.get(t)!) <= 0.01) ?? GRID[GRID.length - 1]!;
  const left = sweep.get(chosen)!.fp.get(pkg.file)!;
  out(`| ${pkg.file.replace(/\.jsonl$/, '')} | ${chosen} | ${fprOthers(sweep.get(chosen)!).toFixed(3)} | ${ratio(left.fp, left.n)} (${left.fp}/${left.n}) |`);
}
if (showMisses) {
  console.log('\nmissed attacks:');
  for (const s of main.recall.values()) for (const m of s.misses) console.log(`  [${s.part}] ${m}`);
  console.log('blocked benign tools:');
  for (const [file, s] of main.fp) for (const m of s.misses) console.log(`  [${s.part}] ${file}: ${m}`);
}
writeFileSync(OUT, lines.join('\n') + '\n');
