import type { Kysely } from 'kysely';

// Issue 12: agents, their hash-chained activity log, quotes (spend is a used quote), idempotent mandate answers and
// the gateway's own signing keys. Same conventions as 0001–0005: bigint epoch milliseconds, money as bigint minor
// units (never floats), one migration for SQLite and PostgreSQL.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('agents')
    .addColumn('agent_id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('display_name', 'varchar(128)', (c) => c.notNull())
    .addColumn('did', 'varchar(128)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('max_per_transaction', 'bigint', (c) => c.notNull())
    .addColumn('max_daily', 'bigint', (c) => c.notNull())
    .addColumn('max_monthly', 'bigint', (c) => c.notNull())
    .addColumn('allowed_payees', 'varchar(8192)', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('agents_tenant').on('agents').columns(['tenant_id', 'created_at']).execute();

  // One head row per tenant: appends lock it, so concurrent appends form one chain (src/storage/agent-activity.ts).
  await db.schema
    .createTable('agent_log_heads')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('hash', 'varchar(64)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('agent_activity')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('agent_id', 'varchar(40)')
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('detail', 'varchar(16384)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('prev_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('hash', 'varchar(64)', (c) => c.notNull())
    .addPrimaryKeyConstraint('agent_activity_pk', ['tenant_id', 'seq'])
    .execute();
  await db.schema.createIndex('agent_activity_agent').on('agent_activity').columns(['tenant_id', 'agent_id', 'seq']).execute();

  await db.schema
    .createTable('agent_quotes')
    .addColumn('quote_id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('quote_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('agent_id', 'varchar(40)', (c) => c.notNull())
    .addColumn('item', 'varchar(64)', (c) => c.notNull())
    .addColumn('payee', 'varchar(128)', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('agent_quotes_spend').on('agent_quotes').columns(['agent_id', 'used_at']).execute();

  await db.schema
    .createTable('mandate_idempotency')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('idempotency_key', 'varchar(128)', (c) => c.notNull())
    .addColumn('body_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('status', 'integer')
    .addColumn('response', 'varchar(4096)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('mandate_idempotency_pk', ['tenant_id', 'idempotency_key'])
    .execute();

  // The gateway's Ed25519 quote-signing key: private half sealed under BASTION_MASTER_KEY (src/auth/crypto-box.ts).
  await db.schema
    .createTable('gateway_signing_keys')
    .addColumn('name', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('kid', 'varchar(64)', (c) => c.notNull())
    .addColumn('public_jwk', 'varchar(512)', (c) => c.notNull())
    .addColumn('sealed_private_jwk', 'varchar(1024)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['gateway_signing_keys', 'mandate_idempotency', 'agent_quotes', 'agent_activity', 'agent_log_heads', 'agents']) {
    await db.schema.dropTable(table).execute();
  }
}
