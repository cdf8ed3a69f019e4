import t from 'tap';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readRows } from '../../scripts/lib/jsonl.js';
import { authoredFiles, publicSourceFiles, publicSourceStems, publicSourceTrainingRows, publicSourcesDir } from '../../scripts/lib/public-sources.js';
import { sourceUnits } from '../../scripts/lib/source-units.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

t.test('every file of datasets/sources is one leave-one-source-out unit of its own', async (t) => {
  const files = publicSourceFiles(root).filter((f) => f.startsWith(publicSourcesDir(root)));
  t.ok(files.length >= 31, `${files.length} public sources`);
  const stems = publicSourceStems(root);
  const rows = files.flatMap((f) => readRows(f).slice(0, 3));
  const units = sourceUnits(rows, new Map(), stems);
  for (const file of files) {
    const stem = file.split('/').pop()!.replace(/\.jsonl$/, '');
    const own = rows.filter((r) => r.id.startsWith(`${stem}-`) && /-\d+$/.test(r.id.slice(stem.length)));
    t.ok(own.length > 0, `${stem} has rows`);
    t.ok(own.every((r) => units.get(r.id) === `source:${stem}`), `${stem} rows are held out as source:${stem}`);
  }
  t.equal(new Set([...units.values()].filter((u) => u.startsWith('source:'))).size, files.length, 'no two sources share a unit');
  // A dev-set row keeps its old unit even if its id looks like `<word>-<n>`.
  const dev = sourceUnits([{ id: 'garak-00012', text: 'x', label: 'attack', kind: 'prompt', category: 'jailbreak', source: 'NVIDIA/garak' }], new Map(), stems);
  t.match(dev.get('garak-00012'), /^garak:/);
});

t.test('every authored batch is one held-out unit of its own, and enters training like a source', async (t) => {
  const files = authoredFiles(root);
  t.ok(files.length > 0, `${files.length} authored batches`);
  t.same(publicSourceFiles(root).slice(-files.length), files, 'the eval and training read them with the public sources');
  const rows = files.flatMap((f) => readRows(f).slice(0, 3));
  const units = sourceUnits(rows, new Map(), publicSourceStems(root));
  for (const row of rows) t.equal(units.get(row.id), `authored:batch-${row.id.split('-')[1]}`, row.id);
  t.equal(new Set(units.values()).size, files.length, 'one unit per batch');
});

t.test('the injection model trains on the sources without their harmful requests, each source capped in weight', async (t) => {
  const rows = publicSourceTrainingRows(root, 600, ['prompt', 'tool_result']);
  t.notOk(rows.some((r) => r.kind === 'tool_call'), 'tool-call sources are held-out units only: the effect judge decides tool calls');
  t.notOk(rows.some((r) => r.category === 'harmful_request'), 'harmful requests belong to the harmful-intent signal');
  t.ok(rows.some((r) => r.id.startsWith('orbench80k_sample-')), 'over-refusal look-alikes are benign training rows');
  t.ok(rows.every((r) => r.external === true), 'source rows do not anchor the operating point');
  const mass = new Map<string, number>();
  for (const r of rows) {
    const key = `${r.id.replace(/-\d+$/, '')}|${r.kind}|${r.label}`;
    mass.set(key, (mass.get(key) ?? 0) + (r.weight ?? 1));
  }
  for (const [key, m] of mass) t.ok(m <= 600.001, `${key} weighs ${m.toFixed(1)} rows`);
  t.ok(mass.get('injecagent|tool_result|attack')! > 599, 'a large source is capped, not dropped');
});
