import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import t from 'tap';
import { verifyActivityLog } from '../../src/storage/agent-activity.js';
import { databaseUrl, needs, type StorageBackend } from '../helpers/backends.js';
import { startTestGateway } from '../helpers/gateway.js';
import { MASTER_KEY } from '../helpers/portal.js';
import { runCli } from '../helpers/process.js';
import { registeredAgent } from '../mcp/helpers.js';

// Whoever can write the database can empty a tenant's log (records and head row) or put back an older genuine head
// and delete what came after: the chain stays consistent. The anchor kept outside the database remembers how far the
// log had got, and a tenant with agents cannot have an empty log.
for (const backend of ['sqlite', 'postgres'] as StorageBackend[]) {
  t.test(`${backend}: a wiped or rolled-back activity log is reported`, backend === 'postgres' ? await needs('postgres') : {}, async (t) => {
    const url = await databaseUrl(t, backend);
    // SQLite keeps the anchor next to its database file by default; PostgreSQL needs the file named.
    const anchorFile = backend === 'postgres' ? join(mkdtempSync(join(tmpdir(), 'bastion-anchor-')), 'anchor.json') : undefined;
    const gw = await startTestGateway(t, { databaseUrl: url, config: { masterKey: MASTER_KEY, ...(anchorFile ? { activityAnchorFile: anchorFile } : {}) } });
    const db = gw.services.storage.db;
    const env = { DATABASE_URL: url, BASTION_MASTER_KEY: MASTER_KEY.toString('hex'), ...(anchorFile ? { BASTION_ACTIVITY_ANCHOR_FILE: anchorFile } : {}) };
    const cli = async (tenant: string) => {
      const run = await runCli(['agents', 'verify-log', '--tenant', tenant], env);
      return { code: run.code, ...(JSON.parse(run.stdout) as { records: number; intact: boolean; first_break?: { seq: number; reason: string } }) };
    };
    const verify = (tenant: string) => verifyActivityLog(gw.services.storage, tenant);

    for (let i = 0; i < 4; i++) await registeredAgent(gw, 'acme');
    t.match(await cli('acme'), { code: 0, records: 4, intact: true }, 'four registrations, intact (verify-log)');

    t.test('every record and the head row deleted', async (t) => {
      await sql`delete from agent_activity where tenant_id = 'acme'`.execute(db);
      await sql`delete from agent_log_heads where tenant_id = 'acme'`.execute(db);
      t.match(await cli('acme'), { code: 1, records: 0, intact: false, first_break: { seq: 4, reason: 'rolled_back' } }, 'verify-log: the anchor had seen seq 4');
      rmSync(gw.services.storage.activityAnchor!.path);
      t.match(await verify('acme'), { records: 0, intact: false, first_break: { seq: 0, reason: 'log_missing' } }, 'without the anchor: a tenant with agents has no empty log');
    });

    t.test('an older genuine head put back and the newer records deleted', async (t) => {
      await registeredAgent(gw, 'globex');
      await registeredAgent(gw, 'globex');
      const older = await db.selectFrom('agent_log_heads').selectAll().where('tenant_id', '=', 'globex').executeTakeFirstOrThrow();
      await registeredAgent(gw, 'globex');
      await registeredAgent(gw, 'globex'); // appending seq 4 anchors seq 3 (the newest committed head)
      await sql`delete from agent_activity where tenant_id = 'globex' and seq > 2`.execute(db);
      await sql`update agent_log_heads set seq = ${older.seq}, hash = ${older.hash}, mac = ${older.mac} where tenant_id = 'globex'`.execute(db);
      t.match(await verify('globex'), { records: 2, intact: false, first_break: { seq: 3, reason: 'rolled_back' } }, 'two records silently gone are found');
    });

    t.test('an anchor edited by hand is reported, not trusted', async (t) => {
      await registeredAgent(gw, 'initech');
      await registeredAgent(gw, 'initech');
      t.match(await verify('initech'), { records: 2, intact: true });
      const file = gw.services.storage.activityAnchor!.path;
      t.ok(existsSync(file));
      const anchors = JSON.parse(readFileSync(file, 'utf8')) as Record<string, { seq: number }>;
      anchors.initech.seq = 1;
      writeFileSync(file, JSON.stringify(anchors));
      t.match(await verify('initech'), { intact: false, first_break: { reason: 'anchor_mismatch' } });
      writeFileSync(file, 'not json');
      t.match(await verify('initech'), { intact: false, first_break: { seq: 0, reason: 'anchor_mismatch' } }, 'an unreadable anchor file is reported too');
    });
  });
}
