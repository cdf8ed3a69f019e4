import t from 'tap';
import { readFileSync } from 'node:fs';

interface Row {
  text: string;
  label: string;
  subcategory: string;
  source: string;
  foldKeys: string[];
  span: [number, number];
}

const rows: Row[] = readFileSync(new URL('../../datasets/injected-documents.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as Row);

t.test('every injected document names both source rows, from two different sources', async (t) => {
  const attacks = rows.filter((r) => r.label === 'attack');
  t.ok(attacks.length >= 1000);
  const same = attacks.filter((row) => {
    const [instruction, carrier] = row.foldKeys.map((k) => k.replace(/-\d+$/, ''));
    return instruction === carrier;
  });
  t.same(same.length, 0, 'never an instruction and a carrier of the same source');
  t.ok(attacks.every((r) => r.foldKeys.length === 2));
});

t.test('the span holds the inserted instruction, in every disguise', async (t) => {
  const disguises = new Set(rows.map((r) => r.subcategory));
  for (const d of ['plain', 'html_comment', 'hidden_element', 'alt_text', 'code_comment', 'json_field', 'email_footer', 'addressed']) t.ok(disguises.has(d), d);
  const bad = rows.filter((row) => !(row.span[0] >= 0 && row.span[1] > row.span[0] && row.span[1] <= row.text.length));
  t.same(bad.length, 0);
});

t.test('benign rows never address the assistant', async (t) => {
  t.notOk(rows.some((r) => r.label === 'benign' && r.subcategory === 'addressed'));
});
