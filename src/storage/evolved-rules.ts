import type { Kysely, Selectable } from 'kysely';
import type { DynamicRule } from '../inspect/types.js';
import type { EvolvedRulesTable, RuleStatus } from './evolution-schema.js';
import type { Database } from './schema.js';

export type EvolvedRule = Selectable<EvolvedRulesTable>;
export type NewRule = Omit<EvolvedRule, 'hits' | 'fp_reports' | 'updated_at'>;

export async function insertRule(db: Kysely<Database>, rule: NewRule): Promise<void> {
  await db.insertInto('evolved_rules').values({ ...rule, updated_at: rule.created_at }).execute();
}

export async function findRule(db: Kysely<Database>, id: string): Promise<EvolvedRule | undefined> {
  return db.selectFrom('evolved_rules').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Newest first. */
export async function listRules(db: Kysely<Database>, options: { status?: RuleStatus; limit: number }): Promise<EvolvedRule[]> {
  let q = db.selectFrom('evolved_rules').selectAll();
  if (options.status) q = q.where('status', '=', options.status);
  return q.orderBy('created_at', 'desc').orderBy('id').limit(options.limit).execute();
}

/** The rules the pipeline runs: active ones, oldest first, at most `max`. */
export async function activeRules(db: Kysely<Database>, max: number): Promise<DynamicRule[]> {
  const rows = await db
    .selectFrom('evolved_rules')
    .select(['id', 'kind', 'pattern', 'family'])
    .where('status', '=', 'active')
    .orderBy('created_at')
    .orderBy('id')
    .limit(max)
    .execute();
  return rows.map((r) => ({ id: r.id, kind: r.kind, pattern: r.pattern, ...(r.family ? { family: r.family } : {}) }));
}

/** Live and waiting rules: what a new rule must not duplicate. */
export async function rulesInForce(db: Kysely<Database>, max: number): Promise<DynamicRule[]> {
  const rows = await db
    .selectFrom('evolved_rules')
    .select(['id', 'kind', 'pattern'])
    .where('status', 'in', ['active', 'pending'])
    .orderBy('created_at', 'desc')
    .limit(max)
    .execute();
  return rows.map((r) => ({ id: r.id, kind: r.kind, pattern: r.pattern }));
}

/**
 * Changes only when the active set may have: the count of active rules and the latest status change. Replicas
 * compare it periodically, in case a pub/sub message was missed. Hit and feedback counters do not touch it.
 */
export async function activeFingerprint(db: Kysely<Database>): Promise<string> {
  const row = await db
    .selectFrom('evolved_rules')
    .select((eb) => [
      eb.fn.countAll<number>().filterWhere('status', '=', 'active').as('active'),
      eb.fn.max<number | null>('updated_at').as('latest'),
    ])
    .executeTakeFirst();
  return `${Number(row?.active ?? 0)}:${Number(row?.latest ?? 0)}`;
}

/** Moves a rule from one of `from` to `to`; undefined when the rule is not in one of those states. */
export async function transitionRule(
  db: Kysely<Database>,
  id: string,
  from: readonly RuleStatus[],
  to: RuleStatus,
  reason: string | null,
  now = Date.now(),
): Promise<EvolvedRule | undefined> {
  const result = await db
    .updateTable('evolved_rules')
    .set({ status: to, reason, updated_at: now })
    .where('id', '=', id)
    .where('status', 'in', [...from])
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return undefined;
  return findRule(db, id);
}

/** Adds the hit counts a replica accumulated since its last flush. */
export async function addHits(db: Kysely<Database>, counts: ReadonlyMap<string, number>): Promise<void> {
  for (const [id, n] of counts) {
    await db.updateTable('evolved_rules').set((eb) => ({ hits: eb('hits', '+', n) })).where('id', '=', id).execute();
  }
}

/** Counts one false-positive report; returns the new total and the rule's status. */
export async function addFalsePositive(db: Kysely<Database>, id: string): Promise<{ reports: number; status: RuleStatus } | undefined> {
  await db.updateTable('evolved_rules').set((eb) => ({ fp_reports: eb('fp_reports', '+', 1) })).where('id', '=', id).execute();
  const row = await db.selectFrom('evolved_rules').select(['fp_reports', 'status']).where('id', '=', id).executeTakeFirst();
  return row && { reports: Number(row.fp_reports), status: row.status };
}
