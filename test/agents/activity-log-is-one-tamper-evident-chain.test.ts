import { sql } from 'kysely';
import t from 'tap';
import { appendActivity, verifyActivityLog } from '../../src/storage/agent-activity.js';
import { migrate, openStorage } from '../../src/storage/database.js';
import { databaseUrl, needs, type StorageBackend } from '../helpers/backends.js';
import { MASTER_KEY } from '../helpers/portal.js';
import { runCli } from '../helpers/process.js';

for (const backend of ['sqlite', 'postgres'] as StorageBackend[]) {
  t.test(`${backend}: the activity log stays one chain under concurrency, and tampering is found`, backend === 'postgres' ? await needs('postgres') : {}, async (t) => {
    const url = await databaseUrl(t, backend);
    const storage = openStorage(url, { masterKey: MASTER_KEY });
    t.teardown(() => storage.close());
    await migrate(storage);
    const { db } = storage;
    const append = (tenant: string, i: number) =>
      db.transaction().execute((trx) => appendActivity(trx, storage, tenant, { agentId: `agt_${i}`, kind: 'quote.issued', detail: { n: i } }));

    t.test('100 concurrent appends on two tenants: gapless sequences, every link intact', async (t) => {
      const seqs = await Promise.all(Array.from({ length: 100 }, (_, i) => append(i % 2 ? 'acme' : 'globex', i)));
      t.same([...seqs.filter((_, i) => i % 2)].sort((a, b) => a - b), Array.from({ length: 50 }, (_, i) => i + 1), 'acme: seq 1..50, each once');
      for (const tenant of ['acme', 'globex']) {
        const result = await verifyActivityLog(storage, tenant);
        t.same(result, { tenant_id: tenant, records: 50, intact: true }, `${tenant}: one chain`);
      }
    });

    t.test('the CLI verifies, then finds an edited record, and a deleted one at the tail', async (t) => {
      const env = { DATABASE_URL: url, BASTION_MASTER_KEY: MASTER_KEY.toString('hex') };
      const ok = await runCli(['agents', 'verify-log', '--tenant', 'acme'], env);
      t.equal(ok.code, 0, ok.stderr);
      t.same(JSON.parse(ok.stdout), { tenant_id: 'acme', records: 50, intact: true });

      await sql`update agent_activity set detail = ${'{"n":999}'} where tenant_id = 'acme' and seq = 17`.execute(db);
      const edited = await runCli(['agents', 'verify-log', '--tenant', 'acme'], env);
      t.equal(edited.code, 1);
      t.same(JSON.parse(edited.stdout).first_break, { seq: 17, reason: 'hash_mismatch' });
      t.match(edited.stderr, /broken at seq 17/);

      await sql`delete from agent_activity where tenant_id = 'globex' and seq = 50`.execute(db);
      t.same((await verifyActivityLog(storage, 'globex')).first_break, { seq: 49, reason: 'head_mismatch' }, 'a deleted last record is caught by the head');
      await sql`delete from agent_activity where tenant_id = 'globex' and seq = 20`.execute(db);
      t.same((await verifyActivityLog(storage, 'globex')).first_break, { seq: 20, reason: 'seq_gap' }, 'a deleted middle record');

      const usage = await runCli(['agents', 'verify-log'], env);
      t.equal(usage.code, 2, 'a missing --tenant is a usage error');
    });
  });
}
