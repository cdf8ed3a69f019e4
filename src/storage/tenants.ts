import type { Kysely } from 'kysely';
import { gatewayTenantPlan } from '../config/plans.js';
import type { Database, TenantsTable } from './schema.js';

export interface Tenant {
  id: string;
  plan: string;
  addons: string[];
  createdAt: number;
}

function toTenant(row: TenantsTable): Tenant {
  return { id: row.id, plan: row.plan, addons: JSON.parse(row.addons) as string[], createdAt: row.created_at };
}

export async function createTenant(db: Kysely<Database>, id: string, plan: string): Promise<Tenant> {
  const row: TenantsTable = { id, plan, addons: '[]', created_at: Date.now() };
  await db.insertInto('tenants').values(row).execute();
  return toTenant(row);
}

/** Creates the tenant when it does not exist yet; never changes an existing one. */
export async function ensureTenant(db: Kysely<Database>, id: string, plan: string): Promise<Tenant> {
  await db
    .insertInto('tenants')
    .values({ id, plan, addons: '[]', created_at: Date.now() })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  const tenant = await findTenant(db, id);
  if (!tenant) throw new Error('tenant vanished after insert');
  return tenant;
}

export async function findTenant(db: Kysely<Database>, id: string): Promise<Tenant | undefined> {
  const row = await db.selectFrom('tenants').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toTenant(row) : undefined;
}

export async function listTenants(db: Kysely<Database>): Promise<Tenant[]> {
  const rows = await db.selectFrom('tenants').selectAll().orderBy('id').execute();
  return rows.map(toTenant);
}

export interface EntitlementChange {
  before: Tenant;
  after: Tenant;
}

/**
 * Read-decide-write of a tenant's plan and add-ons as a compare-and-set: the update only applies if the row still
 * holds what `decide` saw, otherwise it re-reads and decides again. Two operators changing the same tenant at once
 * (a grant of an add-on racing a tier revocation) therefore can never store a combination neither of them checked.
 * Plain SQL, so it behaves the same on SQLite and PostgreSQL. `decide` may throw to refuse the change.
 * Returns undefined when the tenant does not exist, 'contended' when every attempt lost a race.
 */
export async function changeEntitlements(
  db: Kysely<Database>,
  id: string,
  decide: (tenant: Tenant) => { plan: string; addons: string[] },
  attempts = 5,
): Promise<EntitlementChange | undefined | 'contended'> {
  for (let i = 0; i < attempts; i++) {
    const row = await db.selectFrom('tenants').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    const before = toTenant(row);
    const next = decide(before);
    const addons = JSON.stringify([...new Set(next.addons)].sort());
    const result = await db
      .updateTable('tenants')
      .set({ plan: next.plan, addons })
      .where('id', '=', id)
      .where('plan', '=', row.plan)
      .where('addons', '=', row.addons)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) return { before, after: toTenant({ ...row, plan: next.plan, addons }) };
  }
  return 'contended';
}

/**
 * A tenant the gateway creates itself (the quickstart's `default`, a BASTION_API_KEYS tenant, `keys create
 * --create-tenant`). BASTION_PLANS=owner: it holds every capability with no quota, an existing one included (a data
 * directory from before keeps working without limits); resell: created on the catalogue's default plan, never changed.
 */
export async function ensureGatewayTenant(db: Kysely<Database>, id: string, plans: 'owner' | 'resell'): Promise<Tenant> {
  const wanted = gatewayTenantPlan(plans);
  const tenant = await ensureTenant(db, id, wanted.plan);
  if (plans === 'resell' || (tenant.plan === wanted.plan && wanted.addons.every((a) => tenant.addons.includes(a)))) return tenant;
  const changed = await changeEntitlements(db, id, () => wanted);
  return changed && changed !== 'contended' ? changed.after : tenant;
}
