import { existsSync, readFileSync } from 'node:fs';
import type { CorpusRow, RowMeta } from '../../src/inspect/semantic/corpus.js';

/** JSON Lines reader for the dev-set format (one object per line, blank lines ignored). */
export function readJsonl<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as T);
}

/** `<name>.meta.jsonl` next to `<name>.jsonl`, keyed by id; empty when absent. */
export function readSidecarMeta(path: string): Map<string, RowMeta> {
  const metaPath = path.replace(/\.jsonl$/, '.meta.jsonl');
  if (metaPath === path || !existsSync(metaPath)) return new Map();
  return new Map(readJsonl<RowMeta>(metaPath).map((m) => [m.id, m]));
}

export function readRows(path: string): CorpusRow[] {
  return readJsonl<CorpusRow>(path);
}
