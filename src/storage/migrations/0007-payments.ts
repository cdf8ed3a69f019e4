import type { Kysely } from 'kysely';

// Issue 12, paid MCP tools: the replay table of payment proofs (x402 nonces and spent L402 payment hashes), the
// gateway's symmetric secrets (the L402 macaroon root key, sealed under BASTION_MASTER_KEY) and the indexes the
// x402 payer lookup (agents by did:key) and the housekeeping sweep (expired quotes, idempotency rows, nonces) need.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('payment_nonces')
    // sha256(scheme, payer, nonce): bounded width whatever the client sent, one row per proof ever accepted.
    .addColumn('replay_key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('scheme', 'varchar(8)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // After this instant the proof is stale anyway (x402: issued_at + 5 min; L402: the macaroon's expiry).
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('payment_nonces_expiry').on('payment_nonces').column('expires_at').execute();

  await db.schema
    .createTable('gateway_secrets')
    .addColumn('name', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('sealed_secret', 'varchar(1024)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema.createIndex('agents_did').on('agents').column('did').execute();
  await db.schema.createIndex('agent_quotes_expiry').on('agent_quotes').columns(['used_at', 'expires_at']).execute();
  await db.schema.createIndex('mandate_idempotency_created').on('mandate_idempotency').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('mandate_idempotency_created').execute();
  await db.schema.dropIndex('agent_quotes_expiry').execute();
  await db.schema.dropIndex('agents_did').execute();
  await db.schema.dropTable('gateway_secrets').execute();
  await db.schema.dropTable('payment_nonces').execute();
}
