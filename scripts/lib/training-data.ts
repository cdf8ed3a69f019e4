import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { groupOf, stripTestSuiteArtefacts, type CorpusRow } from '../../src/inspect/semantic/corpus.js';
import settings from '../../config/semantic.json' with { type: 'json' };
import { augmentInjections, extractInserted, type Snippet } from '../../src/inspect/semantic/augment.js';
import type { TrainingRow } from '../../src/inspect/semantic/build-model.js';
import { readJsonl, readRows, readSidecarMeta } from './jsonl.js';
import { publicSourceTrainingRows } from './public-sources.js';

/** Where the committed training data lives (datasets/NOTICE.md describes each file). */
export function datasetPaths(root: string): { derived: string; extra: string; curatedDir: string } {
  return {
    derived: join(root, 'datasets', 'dev-derived.jsonl'),
    extra: join(root, 'datasets', 'extra-derived.jsonl'),
    curatedDir: join(root, 'datasets', 'curated'),
  };
}

/**
 * Copies the extra benign system and role prompts (../shared/eval/extra/*.jsonl, see its README) into
 * datasets/extra-derived.jsonl. Translations of one agent (lobe-chat `name.de-DE.json`, `name.json`) and one fabric
 * pattern share a group, so cross-validation never splits a prompt from its translation.
 */
export function importExtra(extraDir: string, outPath: string): number {
  const rows: CorpusRow[] = [];
  for (const file of readdirSync(extraDir).filter((f) => f.endsWith('.jsonl')).sort()) {
    for (const row of readJsonl<CorpusRow & { origin?: string }>(join(extraDir, file))) {
      rows.push({ id: row.id, text: row.text, label: row.label, kind: row.kind, category: row.category, group: extraGroup(row), ...(row.source ? { source: row.source } : {}) });
    }
  }
  writeFileSync(outPath, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return rows.length;
}

function extraGroup(row: CorpusRow & { origin?: string }): string {
  const origin = row.origin ?? '';
  const agent = /^src\/(.+?)(?:\.[a-z]{2}(?:-[A-Za-z]{2,4})?)?\.json\b/.exec(origin);
  if (agent) return `lobe:${agent[1]}`;
  const pattern = /^data\/patterns\/([^/]+)\//.exec(origin);
  if (pattern) return `fabric:${pattern[1]}`;
  return `id:${row.id}`;
}

/**
 * Derives datasets/dev-derived.jsonl from the labelled dev set: secret *attack* rows are left out (realistic-format
 * fake credentials trip secret scanners and are layer 3's job), Atomic Red Team commands lose their test-suite
 * bookkeeping, and every row gets its cross-validation group.
 */
export function importDev(devPath: string, outPath: string): number {
  const meta = readSidecarMeta(devPath);
  const rows: CorpusRow[] = [];
  const all = readRows(devPath);
  // BIPIA: the clean email each attack was built from (origin "... into benchmark/email/train.jsonl#N").
  const emailByOrigin = new Map<string, CorpusRow>();
  for (const row of all) if (row.category === 'email') emailByOrigin.set(meta.get(row.id)?.origin ?? '', row);
  for (const row of all) {
    if (row.category === 'secret' && row.label === 'attack') continue;
    const m = meta.get(row.id);
    const text = /^T\d{4}/.test(row.category) ? stripTestSuiteArtefacts(row.text) : row.text;
    const email = row.category === 'indirect_injection' ? emailByOrigin.get((m?.origin ?? '').split(' into ')[1] ?? '') : undefined;
    const snippet = email ? extractInserted(row.text, email.text) : undefined;
    rows.push({
      id: row.id,
      text,
      label: row.label,
      kind: row.kind,
      category: row.category,
      ...(m?.subcategory ? { subcategory: m.subcategory } : {}),
      group: groupOf(row, m),
      ...(row.source ? { source: row.source } : {}),
      ...(snippet && email ? { snippet, contextId: email.id } : {}),
    });
  }
  writeFileSync(outPath, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return rows.length;
}

export function loadTrainingRows(root: string): TrainingRow[] {
  const { derived, extra, curatedDir } = datasetPaths(root);
  const derivedRows: TrainingRow[] = [...readRows(derived), ...(existsSync(extra) ? readRows(extra) : [])];
  // A clean BIPIA email weighs as much as all the attacks built from it, so that the email's own words are
  // balanced between the classes and only the inserted instruction separates them.
  const uses = new Map<string, number>();
  for (const row of derivedRows) if (row.contextId) uses.set(row.contextId, (uses.get(row.contextId) ?? 0) + 1);
  const rows: TrainingRow[] = derivedRows.map((row) => {
    if (row.contextId) return { ...row, foldKeys: [row.id, row.contextId] };
    const n = uses.get(row.id);
    return n ? { ...row, weight: n } : row;
  });
  let files: string[] = [];
  try {
    files = readdirSync(curatedDir).filter((f) => f.endsWith('.jsonl')).sort();
  } catch {
    files = [];
  }
  for (const file of files) {
    for (const row of readRows(join(curatedDir, file))) rows.push({ ...row, curated: true, group: row.group ?? `curated:${row.id}` });
  }
  return [...rows, ...augmentedRows(rows, curatedDir), ...publicSourceTrainingRows(root, settings.training.sourceRowsPerLabel, settings.training.sourceKinds)];
}

/**
 * Indirect-injection augmentation (src/inspect/semantic/augment.ts): curated snippets and the instructions
 * extracted from the BIPIA attacks of the dev set are inserted into the curated benign tool-result contexts;
 * BIPIA text-attack instructions and the plain-task curated snippets also serve as benign *prompts* (an
 * instruction typed by the user is no attack).
 */
function augmentedRows(rows: readonly TrainingRow[], curatedDir: string): TrainingRow[] {
  const contexts = rows.filter((r) => r.curated && r.kind === 'tool_result' && r.label === 'benign');
  // Every injection-snippets*.json file: the original hand-written set and the genre set (disguises, languages).
  const snippetFiles = readdirSync(curatedDir).filter((f) => /^injection-snippets.*\.json$/.test(f)).sort();
  const curated = { snippets: snippetFiles.flatMap((f) => (JSON.parse(readFileSync(join(curatedDir, f), 'utf8')) as { snippets: Array<Snippet & { benignAsPrompt?: boolean }> }).snippets) };
  const byGroup = new Map<string, TrainingRow>();
  for (const row of rows) if (row.snippet && row.group && !byGroup.has(row.group)) byGroup.set(row.group, row);
  const derived: Snippet[] = [...byGroup.values()].map((row) => ({
    id: `bipia-${row.id}`,
    text: row.snippet ?? '',
    family: 'injection/indirect_tool_result',
    foldKeys: [row.id],
  }));
  const prompts: TrainingRow[] = [...byGroup.values()]
    .filter((row) => row.group?.startsWith('bipia:text:'))
    .map((row): TrainingRow => ({ id: `prompt-${row.id}`, text: row.snippet ?? '', label: 'benign', kind: 'prompt', category: 'augmented_prompt_benign', curated: true, foldKeys: [row.id] }));
  for (const snippet of curated.snippets.filter((s) => s.benignAsPrompt)) {
    prompts.push({ id: `prompt-${snippet.id}`, text: snippet.text, label: 'benign', kind: 'prompt', category: 'augmented_prompt_benign', curated: true });
  }
  const injected = [...augmentInjections(curated.snippets, contexts, 3, settings.training.seed), ...augmentInjections(derived, contexts, 2, settings.training.seed + 1)];
  // As with the BIPIA emails: a context weighs as much as the attacks built on it.
  for (const context of contexts) context.weight = Math.max(1, injected.filter((r) => r.foldKeys?.includes(context.id)).length);
  return [...injected, ...prompts];
}
