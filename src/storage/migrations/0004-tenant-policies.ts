import type { Kysely } from 'kysely';

// Issue 9: per-tenant detection policy. Its own table (the tenants table is untouched): one row per tenant that
// overrides a process default, the policy as validated JSON (snake_case fields, see src/config/tenant-policy.ts).
// Same conventions as 0001–0003: bigint epoch milliseconds, one migration for SQLite and PostgreSQL.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('tenant_policies')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.primaryKey().references('tenants.id').onDelete('cascade'))
    .addColumn('policy', 'varchar(32768)', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('tenant_policies').execute();
}
