import { sql, type Kysely } from 'kysely';

// Issue 10, defect 1: an evolved rule applies only to the tenant whose traffic produced it (`scope` = 'tenant')
// until EVOLUTION_PROMOTE_TENANTS tenants produced it independently (`evolved_rule_tenants`), then to every tenant
// ('global'). Rules from before this migration that name a tenant become tenant-scoped: they were made before
// customer text was kept out of rules. Same conventions as 0001–0004, one migration for SQLite and PostgreSQL.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('evolved_rules').addColumn('scope', 'varchar(16)', (c) => c.notNull().defaultTo('tenant')).execute();
  await sql`update evolved_rules set scope = 'global' where tenant_id is null`.execute(db);
  await db.schema
    .createTable('evolved_rule_tenants')
    .addColumn('rule_id', 'varchar(40)', (c) => c.notNull())
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('evolved_rule_tenants_pk', ['rule_id', 'tenant_id'])
    .execute();
  await sql`insert into evolved_rule_tenants (rule_id, tenant_id, created_at) select id, tenant_id, created_at from evolved_rules where tenant_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('evolved_rule_tenants').execute();
  await db.schema.alterTable('evolved_rules').dropColumn('scope').execute();
}
