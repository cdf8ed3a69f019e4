import { sql } from 'kysely';
import type { Test } from 'tap';
import { verifyActivityLog } from '../../src/storage/agent-activity.js';
import type { TestGateway } from '../helpers/gateway.js';
import { runCli } from '../helpers/process.js';
import { registeredAgent } from '../mcp/helpers.js';

/** Where a setup keeps its anchors, as a test reaches them: forget one tenant's, or rewrite them. */
export interface AnchorAccess {
  drop(tenant: string): Promise<void>;
  edit(tenant: string, change: (anchor: { seq: number }) => void): Promise<void>;
  garble(tenant: string): Promise<void>;
}

/**
 * Whoever can write the database can empty a tenant's log (records and head row) or put back an older genuine head
 * and delete what came after: the chain stays consistent. The anchor kept outside the database remembers how far the
 * log had got, and a tenant with agents cannot have an empty log. Run on a gateway whose CLI environment is `env`.
 */
export async function rollbackScenarios(t: Test, gw: TestGateway, env: Record<string, string>, anchors: AnchorAccess): Promise<void> {
  const db = gw.services.storage.db;
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
    await anchors.drop('acme');
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
    await anchors.edit('initech', (a) => (a.seq = 1));
    t.match(await verify('initech'), { intact: false, first_break: { reason: 'anchor_mismatch' } });
    await anchors.garble('initech');
    t.match(await verify('initech'), { intact: false, first_break: { seq: 0, reason: 'anchor_mismatch' } }, 'an unreadable anchor is reported too');
  });
}
