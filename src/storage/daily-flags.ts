import type { Kysely } from 'kysely';
import type { Flag } from '../inspect/types.js';
import type { Database } from './schema.js';

export interface FlagCount {
  layer: string;
  category: string;
  count: number;
}

/** Pure: flag counts by layer and category (a flag without a category counts under its type). */
export function tallyFlags(verdicts: readonly { flags: readonly Flag[] }[]): FlagCount[] {
  return [...addFlagTally(new Map(), verdicts).values()];
}

/** Adds the verdicts' flag counts to `counts` (in place), keyed by layer and category. */
export function addFlagTally(counts: Map<string, FlagCount>, verdicts: readonly { flags: readonly Flag[] }[]): Map<string, FlagCount> {
  for (const v of verdicts) {
    for (const f of v.flags) {
      const layer = f.layer.slice(0, 32);
      const category = (f.category ?? f.type).slice(0, 64);
      const key = `${layer}\u0000${category}`;
      const entry = counts.get(key) ?? { layer, category, count: 0 };
      entry.count++;
      counts.set(key, entry);
    }
  }
  return counts;
}

/** One multi-row upsert; each (layer, category) appears once, as PostgreSQL requires. */
export async function addFlagCounts(db: Kysely<Database>, tenantId: string, day: string, counts: readonly FlagCount[]): Promise<void> {
  if (counts.length === 0) return;
  await db
    .insertInto('daily_flags')
    .values(counts.map((c) => ({ tenant_id: tenantId, day, layer: c.layer, category: c.category, count: c.count })))
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'day', 'layer', 'category']).doUpdateSet((eb) => ({ count: eb('daily_flags.count', '+', eb.ref('excluded.count')) })),
    )
    .execute();
}

/** Totals by layer and category over `fromDay`..`toDay` inclusive, largest first. */
export async function flagTotals(db: Kysely<Database>, tenantId: string, fromDay: string, toDay: string): Promise<FlagCount[]> {
  const rows = await db
    .selectFrom('daily_flags')
    .select(['layer', 'category', (eb) => eb.fn.sum<number>('count').as('total')])
    .where('tenant_id', '=', tenantId)
    .where('day', '>=', fromDay)
    .where('day', '<=', toDay)
    .groupBy(['layer', 'category'])
    .execute();
  return rows
    .map((r) => ({ layer: r.layer, category: r.category, count: Number(r.total) }))
    .sort((a, b) => b.count - a.count || a.layer.localeCompare(b.layer) || a.category.localeCompare(b.category));
}
