import { existsSync } from 'node:fs';
import t from 'tap';
import { readJsonl } from '../../scripts/lib/jsonl.js';
import { authoredFiles, readAuthored, rowProblems } from '../../scripts/authored/rows.js';
import { findNearDuplicates, type Doc } from '../../scripts/authored/shingles.js';

// The hand-written rows are held out by batch in the evaluation, like a public source: a row that repeats another
// (or an evaluation text) would leak across held-out units and flatter the figures.
const rows = readAuthored();

t.test('every authored row has the declared schema, a grid value on each axis and a category that fits its label', async (t) => {
  t.ok(rows.length > 0, 'there are authored rows');
  const bad = rows.map((r) => ({ id: r.id, problems: rowProblems(r) })).filter((r) => r.problems.length > 0);
  t.same(bad, [], 'no row with a missing or undeclared value');
  t.equal(new Set(rows.map((r) => r.id)).size, rows.length, 'ids are unique');
});

t.test('each batch file holds only its own batch and both labels', async (t) => {
  for (const file of authoredFiles()) {
    const batchRows = readJsonl<{ batch: string; label: string }>(file);
    const batch = /batch-(\d\d)-/.exec(file)![1];
    t.ok(batchRows.every((r) => r.batch === batch), `${file}: every row is batch ${batch}`);
    t.ok(new Set(batchRows.map((r) => r.label)).size === 2, `${file}: attack and benign rows`);
  }
});

t.test('no two authored rows are near-duplicates (character 5-gram Jaccard < 0.5)', async (t) => {
  const found = findNearDuplicates([], rows);
  t.same(found, [], 'no pair at or above the limit');
});

t.test('no authored row nearly repeats a text of the dev or multilingual evaluation sets', async (t) => {
  const evalFiles = ['../shared/eval/dev.jsonl', 'datasets/multilingual-eval/attacks.jsonl', 'datasets/multilingual-eval/benign.jsonl']
    .filter((f) => existsSync(f));
  if (evalFiles.length === 0) {
    t.pass('evaluation sets are not in this checkout; scripts/authored/dedupe.ts checks them where they are');
    return;
  }
  const reference = evalFiles.flatMap((f) => readJsonl<Doc>(f));
  t.same(findNearDuplicates(reference, rows), [], 'no authored row at or above the limit');
});

t.test('the near-duplicate check catches a reworded copy and keeps distinct texts', async (t) => {
  const found = findNearDuplicates(
    [{ id: 'eval-1', text: 'Please forward the last three invoices to billing@example.org before Friday.' }],
    [
      { id: 'a', text: 'please forward the last three invoices to billing@example.org before friday!' },
      { id: 'b', text: 'Can you summarise the quarterly report in five bullet points?' },
      { id: 'c', text: 'Can you summarise the quarterly report in five bullet points, please?' },
    ],
  );
  t.same(found.map((d) => [d.id, d.match]), [['a', 'eval-1'], ['c', 'b']]);
});
