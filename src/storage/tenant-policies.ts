import type { Kysely } from 'kysely';
import { validatePolicy, type StoredPolicy } from '../config/tenant-policy.js';
import type { Database } from './schema.js';

/**
 * The tenant_policies table: what a tenant overrides of the process-wide detection defaults. A row that fails
 * validation on read throws (the caller answers 5xx): a corrupted policy never silently becomes the defaults.
 */
export async function readTenantPolicy(db: Kysely<Database>, tenantId: string): Promise<StoredPolicy | undefined> {
  const row = await db.selectFrom('tenant_policies').select('policy').where('tenant_id', '=', tenantId).executeTakeFirst();
  return row ? validatePolicy(JSON.parse(row.policy)) : undefined;
}

/** Replaces the tenant's stored policy (an empty policy removes the row: the tenant follows the defaults). */
export async function writeTenantPolicy(db: Kysely<Database>, tenantId: string, policy: StoredPolicy): Promise<StoredPolicy> {
  const valid = validatePolicy(policy);
  if (Object.keys(valid).length === 0) {
    await db.deleteFrom('tenant_policies').where('tenant_id', '=', tenantId).execute();
    return valid;
  }
  const row = { tenant_id: tenantId, policy: JSON.stringify(valid), updated_at: Date.now() };
  await db
    .insertInto('tenant_policies')
    .values(row)
    .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ policy: row.policy, updated_at: row.updated_at }))
    .execute();
  return valid;
}
