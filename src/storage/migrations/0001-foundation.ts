import type { Kysely } from 'kysely';

// `bigint` columns hold epoch milliseconds; SQLite gives them integer affinity, and the pg
// driver is told to parse int8 as a JS number (src/storage/database.ts).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('tenants')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('plan', 'varchar(32)', (c) => c.notNull())
    .addColumn('addons', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('key_id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull().references('tenants.id'))
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('key_hash', 'char(64)', (c) => c.notNull().unique())
    .addColumn('prefix', 'varchar(16)', (c) => c.notNull())
    .addColumn('rate_per_minute', 'integer', (c) => c.notNull())
    .addColumn('source', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('api_keys_tenant').on('api_keys').column('tenant_id').execute();

  await db.schema
    .createTable('usage_monthly')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('period', 'char(7)', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('usage_monthly_pk', ['tenant_id', 'period'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('usage_monthly').execute();
  await db.schema.dropTable('api_keys').execute();
  await db.schema.dropTable('tenants').execute();
}
