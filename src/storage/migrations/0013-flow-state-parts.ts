import type { Kysely } from 'kysely';

// A long-lived flow state (an MCP session) is stored as a snapshot (flow_states, now with the sequence number of the
// last part it covers) plus the parts each call added (flow_state_parts), so a call writes what it added rather than
// the whole state. Per key the sequence is gapless: the primary key refuses a second part with the same number, so a
// replica that lost the race reads the newer parts and appends after them, and a reader that has seen up to n reads
// `seq > n` and cannot miss one. Metadata only, expiring with the state.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('flow_states').addColumn('seq', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema
    .createTable('flow_state_parts')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('key', 'varchar(200)', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('part', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('flow_state_parts_pk', ['tenant_id', 'key', 'seq'])
    .execute();
  await db.schema.createIndex('flow_state_parts_expiry').on('flow_state_parts').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('flow_state_parts').execute();
  await db.schema.alterTable('flow_states').dropColumn('seq').execute();
}
