import type { Kysely } from 'kysely';
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

/** Changes a tenant's plan and/or add-ons (operator billing routes); returns the tenant as it now is. */
export async function setEntitlements(
  db: Kysely<Database>,
  id: string,
  changes: { plan?: string; addons?: string[] },
): Promise<Tenant | undefined> {
  const set: Partial<TenantsTable> = {};
  if (changes.plan !== undefined) set.plan = changes.plan;
  if (changes.addons !== undefined) set.addons = JSON.stringify([...new Set(changes.addons)].sort());
  if (Object.keys(set).length > 0) await db.updateTable('tenants').set(set).where('id', '=', id).execute();
  return findTenant(db, id);
}
