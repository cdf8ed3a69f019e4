import type { Kysely } from 'kysely';

// Customer portal and session auth (issue 6). Same types as 0001: bigint epoch milliseconds, no booleans
// (a nullable timestamp says "since when"), so one migration serves SQLite and PostgreSQL.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('accounts')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull().references('tenants.id'))
    .addColumn('email', 'varchar(254)', (c) => c.notNull().unique())
    .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('display_name', 'varchar(128)')
    .addColumn('company', 'varchar(128)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('accounts_tenant').on('accounts').column('tenant_id').execute();

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('token_hash', 'char(64)', (c) => c.primaryKey())
    .addColumn('family_id', 'varchar(40)', (c) => c.notNull())
    .addColumn('account_id', 'varchar(40)', (c) => c.notNull().references('accounts.id'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('refresh_tokens_family').on('refresh_tokens').column('family_id').execute();
  await db.schema.createIndex('refresh_tokens_account').on('refresh_tokens').column('account_id').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('token_hash', 'char(64)', (c) => c.primaryKey())
    .addColumn('account_id', 'varchar(40)', (c) => c.notNull().references('accounts.id'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('sessions_account').on('sessions').column('account_id').execute();

  await db.schema
    .createTable('totp_secrets')
    .addColumn('account_id', 'varchar(40)', (c) => c.primaryKey().references('accounts.id'))
    .addColumn('secret_enc', 'varchar(512)', (c) => c.notNull())
    .addColumn('enabled_at', 'bigint')
    .addColumn('last_time_step', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('password_resets')
    .addColumn('token_hash', 'char(64)', (c) => c.primaryKey())
    .addColumn('account_id', 'varchar(40)', (c) => c.notNull().references('accounts.id'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('password_resets_account').on('password_resets').column('account_id').execute();

  await db.schema
    .createTable('waitlist')
    .addColumn('email', 'varchar(254)', (c) => c.primaryKey())
    .addColumn('company', 'varchar(128)')
    .addColumn('use_case', 'varchar(1000)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('auth_lockouts')
    .addColumn('subject', 'char(64)', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('locked_until', 'bigint')
    .execute();

  let stats = db.schema
    .createTable('daily_stats')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('day', 'char(10)', (c) => c.notNull());
  for (const column of ['requests', 'allowed', 'blocked', 'redacted', 'risk_low', 'risk_medium', 'risk_high', 'risk_block', 'secrets', 'pii', 'shadow_banned']) {
    stats = stats.addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0));
  }
  await stats.addPrimaryKeyConstraint('daily_stats_pk', ['tenant_id', 'day']).execute();

  await db.schema
    .createTable('daily_flags')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('day', 'char(10)', (c) => c.notNull())
    .addColumn('layer', 'varchar(32)', (c) => c.notNull())
    .addColumn('category', 'varchar(64)', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('daily_flags_pk', ['tenant_id', 'day', 'layer', 'category'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['daily_flags', 'daily_stats', 'auth_lockouts', 'waitlist', 'password_resets', 'totp_secrets', 'sessions', 'refresh_tokens', 'accounts']) {
    await db.schema.dropTable(table).execute();
  }
}
