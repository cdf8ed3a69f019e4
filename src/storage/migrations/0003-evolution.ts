import type { Kysely } from 'kysely';

// Evolution loop (issue 4): evolved rules with provenance and counters, one row per analysed attack (content hash
// only: the dedupe claim shared by replicas and the audit of refusals), and tenant feedback. Same conventions as
// 0001/0002: bigint epoch milliseconds, no booleans, one migration for SQLite and PostgreSQL.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('evolved_rules')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('pattern', 'varchar(4096)', (c) => c.notNull())
    .addColumn('family', 'varchar(128)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('source', 'varchar(16)', (c) => c.notNull())
    .addColumn('model', 'varchar(128)')
    .addColumn('attack_type', 'varchar(64)')
    .addColumn('explanation', 'varchar(512)')
    .addColumn('content_hash', 'char(64)', (c) => c.notNull())
    .addColumn('tenant_id', 'varchar(64)')
    .addColumn('reason', 'varchar(256)')
    .addColumn('hits', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('fp_reports', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('evolved_rules_status').on('evolved_rules').columns(['status', 'created_at']).execute();

  await db.schema
    .createTable('evolution_analyses')
    .addColumn('content_hash', 'char(64)', (c) => c.primaryKey())
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('origin', 'varchar(16)', (c) => c.notNull())
    .addColumn('analyser', 'varchar(16)', (c) => c.notNull())
    .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
    .addColumn('reason', 'varchar(256)')
    .addColumn('rule_id', 'varchar(40)')
    .addColumn('claimed_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema.createIndex('evolution_analyses_claimed').on('evolution_analyses').column('claimed_at').execute();

  await db.schema
    .createTable('rule_feedback')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('request_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('rule_id', 'varchar(40)')
    .addColumn('content_hash', 'char(64)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('rule_feedback_pk', ['tenant_id', 'request_id'])
    .execute();
  await db.schema.createIndex('rule_feedback_rule').on('rule_feedback').column('rule_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['rule_feedback', 'evolution_analyses', 'evolved_rules']) await db.schema.dropTable(table).execute();
}
