import { sql, type Kysely, type Migration } from 'kysely';
import { appendV1, headMacV1 } from './0010-chain-format.js';
import type { Database, Dialect } from '../schema.js';

/**
 * Agent identity and a keyed activity log.
 *
 * - Registration challenges (`agent_challenges`): single-use nonces bound to a tenant and a DID, stored hashed.
 * - A DID is the identity of at most one ACTIVE agent on the whole gateway: a partial unique index (SQLite and
 *   PostgreSQL alike). Registrations made before it proved nothing, so a DID that several active agents share is not
 *   given to any of them: they are all revoked here, each with an `agent.revoked` record (`via: did_conflict`), and
 *   the key holder registers again with a proof. Until now such a DID could not pay anyway (it was ambiguous).
 * - The log heads gain `legacy_seq` and `mac`. Every existing chain is sealed as it stands: its records stay plain
 *   SHA-256 up to `legacy_seq` (verifiable as before) and the head's MAC pins them; new records are keyed. Sealing
 *   needs the chain key, so with existing chains and no BASTION_MASTER_KEY this migration refuses to run.
 */
export function agentIdentity(options: { dialect: Dialect; activityKey?: Buffer }): Migration {
  return {
    async up(raw: Kysely<unknown>): Promise<void> {
      const db = raw as unknown as Kysely<Database>;
      // Checked before any change: SQLite runs migrations outside a transaction.
      const heads = await db.selectFrom('agent_log_heads').select(['tenant_id', 'seq', 'hash']).execute();
      if (heads.length > 0 && !options.activityKey) {
        throw new Error('migration 0010-agent-identity needs BASTION_MASTER_KEY: it seals the existing agent activity logs with a key derived from it');
      }
      await db.schema.alterTable('agent_log_heads').addColumn('legacy_seq', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('agent_log_heads').addColumn('mac', 'varchar(64)').execute();
      for (const h of heads) {
        const head = { tenant_id: h.tenant_id, seq: Number(h.seq), hash: h.hash, legacy_seq: Number(h.seq) };
        await db.updateTable('agent_log_heads').set({ legacy_seq: head.legacy_seq, mac: headMacV1(options.activityKey!, head) }).where('tenant_id', '=', head.tenant_id).execute();
      }

      await db.schema
        .createTable('agent_challenges')
        .addColumn('challenge_hash', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('did', 'varchar(128)', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('agent_challenges_tenant').on('agent_challenges').columns(['tenant_id', 'expires_at']).execute();
      await db.schema.createIndex('agent_challenges_expiry').on('agent_challenges').column('expires_at').execute();

      const now = Date.now();
      const shared = await db.selectFrom('agents').select('did').where('status', '=', 'active').groupBy('did').having((eb) => eb.fn.countAll(), '>', 1).execute();
      for (const { did } of shared) {
        const rows = await db.selectFrom('agents').select(['agent_id', 'tenant_id']).where('did', '=', did).where('status', '=', 'active').orderBy('agent_id').execute();
        await db.updateTable('agents').set({ status: 'revoked', revoked_at: now, updated_at: now }).where('did', '=', did).where('status', '=', 'active').execute();
        if (!options.activityKey) throw new Error('migration 0010-agent-identity needs BASTION_MASTER_KEY: it records the revocation of agents sharing a DID in their keyed activity logs');
        for (const r of rows) await appendV1(db, options.dialect, options.activityKey, r.tenant_id, { agentId: r.agent_id, kind: 'agent.revoked', detail: { via: 'did_conflict' } }, now);
      }
      await db.schema.createIndex('agents_active_did').on('agents').column('did').unique().where(sql.ref('status'), '=', 'active').execute();
    },
  };
}
