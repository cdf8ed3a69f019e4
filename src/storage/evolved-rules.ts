import type { Kysely, Selectable } from 'kysely';
import type { DynamicRule } from '../inspect/types.js';
import type { EvolvedRulesTable, RuleScope, RuleStatus } from './evolution-schema.js';
import type { Database } from './schema.js';

export type EvolvedRule = Selectable<EvolvedRulesTable>;
/** `scope` defaults to `tenant` when the rule names a tenant, else `global`. */
export type NewRule = Omit<EvolvedRule, 'hits' | 'fp_reports' | 'updated_at' | 'scope'> & { scope?: RuleScope };

/** A rule as the pipeline receives it: `tenantId` set when it applies to that tenant only. */
export type ScopedRule = DynamicRule & { tenantId?: string };

export async function insertRule(db: Kysely<Database>, rule: NewRule): Promise<void> {
  const scope = rule.scope ?? (rule.tenant_id ? 'tenant' : 'global');
  await db.transaction().execute(async (tx) => {
    await tx.insertInto('evolved_rules').values({ ...rule, scope, updated_at: rule.created_at }).execute();
    if (rule.tenant_id) await tx.insertInto('evolved_rule_tenants').values({ rule_id: rule.id, tenant_id: rule.tenant_id, created_at: rule.created_at }).execute();
  });
}

/**
 * Records that `tenantId`'s own traffic produced `ruleId` again (idempotent per tenant); returns how many distinct
 * tenants have produced it.
 */
export async function addProducer(db: Kysely<Database>, ruleId: string, tenantId: string, now = Date.now()): Promise<number> {
  await db
    .insertInto('evolved_rule_tenants')
    .values({ rule_id: ruleId, tenant_id: tenantId, created_at: now })
    .onConflict((oc) => oc.columns(['rule_id', 'tenant_id']).doNothing())
    .execute();
  const row = await db.selectFrom('evolved_rule_tenants').select((eb) => eb.fn.countAll<number>().as('n')).where('rule_id', '=', ruleId).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Makes a tenant-scoped rule apply to every tenant; false when it was global already (or is gone). */
export async function promoteRule(db: Kysely<Database>, id: string, now = Date.now()): Promise<boolean> {
  const result = await db.updateTable('evolved_rules').set({ scope: 'global', updated_at: now }).where('id', '=', id).where('scope', '=', 'tenant').executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A stored rule with the number of tenants whose own traffic produced it. */
export type ListedRule = EvolvedRule & { tenants: number | string | bigint };

const withTenants = (db: Kysely<Database>) =>
  db
    .selectFrom('evolved_rules')
    .selectAll('evolved_rules')
    .select((eb) =>
      eb
        .selectFrom('evolved_rule_tenants')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('evolved_rule_tenants.rule_id', '=', 'evolved_rules.id')
        .as('tenants'),
    );

export async function findRule(db: Kysely<Database>, id: string): Promise<ListedRule | undefined> {
  return (await withTenants(db).where('id', '=', id).executeTakeFirst()) as ListedRule | undefined;
}

/** Newest first. */
export async function listRules(db: Kysely<Database>, options: { status?: RuleStatus; limit: number }): Promise<ListedRule[]> {
  let q = withTenants(db);
  if (options.status) q = q.where('status', '=', options.status);
  return (await q.orderBy('created_at', 'desc').orderBy('id').limit(options.limit).execute()) as ListedRule[];
}

const scoped = (r: { id: string; kind: DynamicRule['kind']; pattern: string; family?: string | null; scope: RuleScope; tenant_id: string | null }): ScopedRule => ({
  id: r.id,
  kind: r.kind,
  pattern: r.pattern,
  ...(r.family ? { family: r.family } : {}),
  // A tenant-scoped rule without a tenant applies to nobody (fail closed), never to everyone.
  ...(r.scope === 'global' ? {} : { tenantId: r.tenant_id ?? '' }),
});

/** Rules this gateway evolved, or rules imported from syndicate peers: each kind has its own budget. */
export type RuleOrigin = 'local' | 'imported';
// Literal, not imported from src/tunnels/rules.ts: storage stays below the domain cores.
const IMPORTED = 'syndicate';

/**
 * The rules the pipeline runs: active ones, oldest first, each with its scope. Locally evolved rules (at most `max`)
 * and imported ones (at most `importedMax`) are bounded apart, so imports never crowd out this gateway's own rules.
 */
export async function activeRules(db: Kysely<Database>, max: number, importedMax = 0): Promise<ScopedRule[]> {
  const of = (origin: RuleOrigin, limit: number) =>
    db
      .selectFrom('evolved_rules')
      .select(['id', 'kind', 'pattern', 'family', 'scope', 'tenant_id'])
      .where('status', '=', 'active')
      .where('source', origin === 'imported' ? '=' : '!=', IMPORTED)
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit)
      .execute();
  const local = await of('local', max);
  const imported = importedMax > 0 ? await of('imported', importedMax) : [];
  return [...local, ...imported].map(scoped);
}

/** Live and waiting rules of one origin, each with its scope: what a new rule must not duplicate, or may be a repeat of. */
export async function rulesInForce(db: Kysely<Database>, max: number, origin: RuleOrigin = 'local'): Promise<ScopedRule[]> {
  const rows = await db
    .selectFrom('evolved_rules')
    .select(['id', 'kind', 'pattern', 'scope', 'tenant_id'])
    .where('status', 'in', ['active', 'pending'])
    .where('source', origin === 'imported' ? '=' : '!=', IMPORTED)
    .orderBy('created_at', 'desc')
    .limit(max)
    .execute();
  return rows.map(scoped);
}

/** Live and waiting imported rules: gateway-wide, of one tenant, and over one tunnel (its exact origin note). */
export async function importedCounts(db: Kysely<Database>, tenantId: string, explanation: string): Promise<{ total: number; tenant: number; tunnel: number }> {
  const count = async (filter: 'all' | 'tenant' | 'tunnel') => {
    let q = db.selectFrom('evolved_rules').select((eb) => eb.fn.countAll<number | string>().as('n')).where('status', 'in', ['active', 'pending']).where('source', '=', IMPORTED);
    if (filter !== 'all') q = q.where('tenant_id', '=', tenantId);
    if (filter === 'tunnel') q = q.where('explanation', '=', explanation);
    return Number((await q.executeTakeFirst())?.n ?? 0);
  };
  return { total: await count('all'), tenant: await count('tenant'), tunnel: await count('tunnel') };
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
): Promise<ListedRule | undefined> {
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
