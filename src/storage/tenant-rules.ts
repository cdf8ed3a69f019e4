import type { Kysely } from 'kysely';
import type { EvolvedRule } from './evolved-rules.js';
import type { Database } from './schema.js';

/**
 * The evolved rules one tenant sees (console, `bastion rules --tenant`): the shared rules in force for every tenant,
 * and its own (made from its traffic, applying to it alone) whatever their state, so a rule it switched off can be
 * switched on again. Newest first.
 */
export async function tenantRules(db: Kysely<Database>, tenantId: string, limit: number): Promise<EvolvedRule[]> {
  return db
    .selectFrom('evolved_rules')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([eb('scope', '=', 'global'), eb('status', '=', 'active')]),
        eb.and([eb('scope', '=', 'tenant'), eb('tenant_id', '=', tenantId), eb('status', 'in', ['active', 'pending', 'disabled'])]),
      ]),
    )
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** How many false positives this tenant reported against each rule. */
export async function tenantReportCounts(db: Kysely<Database>, tenantId: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('rule_feedback')
    .select(['rule_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('tenant_id', '=', tenantId)
    .where('type', '=', 'false_positive')
    .where('rule_id', 'is not', null)
    .groupBy('rule_id')
    .execute();
  return new Map(rows.map((r) => [r.rule_id as string, Number(r.n)]));
}
