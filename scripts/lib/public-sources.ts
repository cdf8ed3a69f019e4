import { existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { CorpusRow } from '../../src/inspect/semantic/corpus.js';
import type { TrainingRow } from '../../src/inspect/semantic/build-model.js';
import { readRows } from './jsonl.js';

/**
 * The public training sources in datasets/sources/ (one file per source, datasets/NOTICE.md): how they enter training
 * and the eval. Each file is one leave-one-source-out unit, named `source:<file>`.
 */
export function publicSourcesDir(root: string): string {
  return join(root, 'datasets', 'sources');
}

export function publicSourceFiles(root: string): string[] {
  const dir = publicSourcesDir(root);
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort().map((f) => join(dir, f)) : [];
  return [...files, ...authoredFiles(root)];
}

/**
 * The authored rows (datasets/authored/batch-NN-*.jsonl, written for Bastion on a declared diversity grid, see its
 * GRID.md): they enter training and the eval like a public source, each batch one held-out unit `authored:batch-NN`.
 */
export function authoredFiles(root: string): string[] {
  const dir = join(root, 'datasets', 'authored');
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => /^batch-\d+.*\.jsonl$/.test(f)).sort().map((f) => join(dir, f));
}

/**
 * The held-out unit of a row read from datasets/sources/<file>.jsonl (its ids are `<file>-<n>`) or from an authored
 * batch (ids `auth-NN-<n>`).
 */
export function publicSourceUnit(row: Pick<CorpusRow, 'id'>, fileStems: ReadonlySet<string>): string | undefined {
  const batch = /^auth-(\d+)-\d+$/.exec(row.id)?.[1];
  if (batch) return `authored:batch-${batch}`;
  const stem = /^(.+)-\d+$/.exec(row.id)?.[1];
  return stem && fileStems.has(stem) ? `source:${stem}` : undefined;
}

export function publicSourceStems(root: string): Set<string> {
  const dir = publicSourcesDir(root);
  return new Set(publicSourceFiles(root).filter((f) => f.startsWith(dir)).map((f) => basename(f, '.jsonl')));
}

/**
 * Harmful requests (plain asks for malware, fraud, weapons…) are not prompt injection: the harmful-intent signal owns
 * them, under its own tenant policy. For the injection model they are left out of training rather than taught as
 * negatives, so that a jailbreak carrying a harmful goal is not learned as benign.
 */
export const isHarmfulRequest = (row: Pick<CorpusRow, 'category' | 'label'>): boolean => row.category === 'harmful_request';

/**
 * Source rows for the injection model. Templated sources (InjecAgent's 17 JSON skeletons, spikee's one or two carrier
 * documents, TaskTracker's trigger phrases) would otherwise outweigh the varied ones, and a model that learns a
 * source's carrier learns nothing that transfers: every source's attack and benign mass is capped at
 * `rowsPerSourceLabel` rows' worth, so each source counts about as much as any other. Only the `kinds` named in
 * config/semantic.json train: tool calls are judged by their effect first, and the public tool-call sources are
 * cheat-sheet lines and payload fragments (labelled attack however innocuous the single step) and admin one-liners
 * (labelled benign however destructive): trained on, they taught the model to block `vault kv get`, `base64 -d` and
 * firewall rules. They stay held-out units of the eval.
 */
export function publicSourceTrainingRows(root: string, rowsPerSourceLabel: number, kinds: readonly string[]): TrainingRow[] {
  const out: TrainingRow[] = [];
  for (const file of publicSourceFiles(root)) {
    const rows = readRows(file).filter((row) => !isHarmfulRequest(row) && kinds.includes(row.kind));
    const count = new Map<string, number>();
    for (const row of rows) count.set(`${row.kind}|${row.label}`, (count.get(`${row.kind}|${row.label}`) ?? 0) + 1);
    for (const row of rows) {
      const n = count.get(`${row.kind}|${row.label}`) ?? 1;
      const weight = Math.min(1, rowsPerSourceLabel / n);
      out.push({ id: row.id, external: true, text: row.text, label: row.label, kind: row.kind, category: row.category, ...(row.source ? { source: row.source } : {}), ...(weight < 1 ? { weight } : {}) });
    }
  }
  return out;
}
