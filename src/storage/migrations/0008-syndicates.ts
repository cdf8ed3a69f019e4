import type { Kysely } from 'kysely';

// Issue 14: syndicates (one per tenant: public identity keys, private halves sealed under BASTION_MASTER_KEY),
// tunnels (public metadata only: the shared keys live in volatile storage and nowhere else, so deleting them there
// shreds the tunnel) and pinned peer identities. Same conventions as 0001–0006: bigint epoch milliseconds, one
// migration for SQLite and PostgreSQL.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('syndicates')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.primaryKey().references('tenants.id').onDelete('cascade'))
    .addColumn('syndicate_id', 'varchar(40)', (c) => c.notNull().unique())
    .addColumn('display_name', 'varchar(128)', (c) => c.notNull())
    .addColumn('identity_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('signing_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('sealed_identity_private', 'varchar(512)', (c) => c.notNull())
    .addColumn('sealed_signing_private', 'varchar(512)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('tunnels')
    .addColumn('tunnel_id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('role', 'varchar(16)', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('peer_syndicate_id', 'varchar(40)', (c) => c.notNull())
    .addColumn('peer_display_name', 'varchar(128)', (c) => c.notNull())
    .addColumn('peer_identity_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('peer_endpoint', 'varchar(256)', (c) => c.notNull())
    .addColumn('safety_number', 'varchar(64)', (c) => c.notNull())
    .addColumn('capabilities', 'varchar(256)', (c) => c.notNull())
    .addColumn('ttl_seconds', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('tunnels_tenant').on('tunnels').columns(['tenant_id', 'created_at']).execute();

  await db.schema
    .createTable('syndicate_pins')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('peer_syndicate_id', 'varchar(40)', (c) => c.notNull())
    .addColumn('identity_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('pinned_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('syndicate_pins_pk', ['tenant_id', 'peer_syndicate_id'])
    .execute();

  // Which rule went over which tunnel: the claim that makes automatic sharing send each rule once, across replicas.
  await db.schema
    .createTable('tunnel_exports')
    .addColumn('tunnel_id', 'varchar(40)', (c) => c.notNull())
    .addColumn('rule_id', 'varchar(40)', (c) => c.notNull())
    .addColumn('shared_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('tunnel_exports_pk', ['tunnel_id', 'rule_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['tunnel_exports', 'syndicate_pins', 'tunnels', 'syndicates']) await db.schema.dropTable(table).execute();
}
