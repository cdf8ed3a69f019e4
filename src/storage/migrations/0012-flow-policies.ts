import type { Kysely } from 'kysely';

// Agent flow policies (docs/FLOWS.md): the flow state of a stored Response or an MCP session (metadata only: tool
// names, call ids, keyed hashes of values — never content), expiring; and every flow decision that refused, withheld
// or flagged a call, with its approval status.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('flow_states')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('key', 'varchar(200)', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('flow_states_pk', ['tenant_id', 'key'])
    .execute();
  await db.schema.createIndex('flow_states_expiry').on('flow_states').column('expires_at').execute();
  await db.schema
    .createTable('flow_decisions')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('api', 'varchar(16)', (c) => c.notNull())
    .addColumn('tool', 'varchar(128)', (c) => c.notNull())
    .addColumn('flow', 'varchar(32)', (c) => c.notNull())
    .addColumn('sink', 'varchar(64)', (c) => c.notNull())
    .addColumn('action', 'varchar(24)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('fingerprint', 'varchar(64)', (c) => c.notNull())
    .addColumn('detail', 'varchar(8192)', (c) => c.notNull())
    .addColumn('request_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('decided_at', 'bigint')
    .addColumn('decided_by', 'varchar(128)')
    .execute();
  await db.schema.createIndex('flow_decisions_tenant').on('flow_decisions').columns(['tenant_id', 'created_at']).execute();
  await db.schema.createIndex('flow_decisions_fingerprint').on('flow_decisions').columns(['tenant_id', 'fingerprint']).execute();
  await db.schema.createIndex('flow_decisions_expiry').on('flow_decisions').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('flow_decisions').execute();
  await db.schema.dropTable('flow_states').execute();
}
