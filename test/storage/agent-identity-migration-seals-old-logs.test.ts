import { Migrator, sql } from 'kysely';
import t from 'tap';
import { GENESIS_HASH, recordHash } from '../../src/agents/activity-chain.js';
import { listActivity, verifyActivityLog } from '../../src/storage/agent-activity.js';
import { migrate, openStorage } from '../../src/storage/database.js';
import { migrationProvider } from '../../src/storage/migrations/index.js';
import { ensureTenant } from '../../src/storage/tenants.js';
import { databaseUrl, needs, type StorageBackend } from '../helpers/backends.js';
import { MASTER_KEY } from '../helpers/portal.js';

const DID = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';

for (const backend of ['sqlite', 'postgres'] as StorageBackend[]) {
  t.test(`${backend}: migration 0010 seals activity logs written before it and revokes DIDs shared by active agents`, backend === 'postgres' ? await needs('postgres') : {}, async (t) => {
    const url = await databaseUrl(t, backend);
    // A database as the previous version left it: unkeyed chains, and one DID registered by two tenants.
    const before = openStorage(url);
    const migrator = new Migrator({ db: before.db, provider: migrationProvider(before) });
    const { error } = await migrator.migrateTo('0008-syndicates');
    if (error) throw error;
    const db = before.db;
    for (const tenant of ['acme', 'globex']) {
      await ensureTenant(db, tenant, 'professional');
      const agentId = `agt_${tenant.padEnd(22, 'x')}`;
      await db.insertInto('agents').values({ agent_id: agentId, tenant_id: tenant, display_name: tenant, did: DID, status: 'active', currency: 'USD', max_per_transaction: 1, max_daily: 1, max_monthly: 1, allowed_payees: '["bastion:tools"]', expires_at: null, created_at: 1, updated_at: 1, revoked_at: null }).execute();
      let prev = GENESIS_HASH;
      for (let seq = 1; seq <= 3; seq++) {
        const record = { tenant_id: tenant, seq, agent_id: agentId, kind: 'quote.issued', detail: JSON.stringify({ amount: seq }), created_at: seq, prev_hash: prev };
        prev = recordHash(record);
        await db.insertInto('agent_activity').values({ ...record, hash: prev }).execute();
      }
      await sql`insert into agent_log_heads (tenant_id, seq, hash) values (${tenant}, 3, ${prev})`.execute(db);
    }

    await t.rejects(migrate(before), /BASTION_MASTER_KEY/, 'without the master key the old logs cannot be sealed: nothing is migrated');
    await before.close();

    const storage = openStorage(url, { masterKey: MASTER_KEY });
    t.teardown(() => storage.close());
    t.same(await migrate(storage), ['0010-agent-identity', '0011-mcp-proxy', '0012-flow-policies', '0013-flow-state-parts', '0014-flow-destinations']);

    const agents = await storage.db.selectFrom('agents').select(['tenant_id', 'status']).where('did', '=', DID).orderBy('tenant_id').execute();
    t.same(agents, [{ tenant_id: 'acme', status: 'revoked' }, { tenant_id: 'globex', status: 'revoked' }], 'neither proved the key: both revoked');
    const acmeLog = await listActivity(storage.db, 'acme', { limit: 10 });
    t.match(acmeLog[0], { seq: 4, kind: 'agent.revoked', detail: { via: 'did_conflict' } }, 'the revocation is a keyed record after the old ones');
    t.same(await verifyActivityLog(storage, 'acme'), { tenant_id: 'acme', records: 4, intact: true }, 'old records verify as plain SHA-256, the new one keyed');

    // Rewrite an old record and re-hash the old part of the chain: the first keyed record still names the old hash.
    let prev = GENESIS_HASH;
    for (let seq = 1; seq <= 3; seq++) {
      const row = await storage.db.selectFrom('agent_activity').selectAll().where('tenant_id', '=', 'globex').where('seq', '=', seq).executeTakeFirstOrThrow();
      const detail = seq === 2 ? JSON.stringify({ amount: 0 }) : row.detail;
      const hash = recordHash({ ...row, seq, created_at: Number(row.created_at), detail, prev_hash: prev });
      await sql`update agent_activity set detail = ${detail}, prev_hash = ${prev}, hash = ${hash} where tenant_id = 'globex' and seq = ${seq}`.execute(storage.db);
      prev = hash;
    }
    t.match(await verifyActivityLog(storage, 'globex'), { intact: false, first_break: { seq: 4, reason: 'prev_hash_mismatch' } }, 'a re-hashed old record is found');

    // Passing a keyed record off as an old one (re-hashed with SHA-256, legacy_seq raised) changes the head's MAC.
    const keyed = await storage.db.selectFrom('agent_activity').selectAll().where('tenant_id', '=', 'acme').where('seq', '=', 4).executeTakeFirstOrThrow();
    const detail = JSON.stringify({ via: 'delete' });
    const hash = recordHash({ ...keyed, seq: 4, created_at: Number(keyed.created_at), detail });
    await sql`update agent_activity set detail = ${detail}, hash = ${hash} where tenant_id = 'acme' and seq = 4`.execute(storage.db);
    await sql`update agent_log_heads set legacy_seq = 4, hash = ${hash} where tenant_id = 'acme'`.execute(storage.db);
    t.match(await verifyActivityLog(storage, 'acme'), { intact: false, first_break: { seq: 4, reason: 'head_mismatch' } });
  });
}
