import { sql } from 'kysely';
import t from 'tap';
import { recordHash } from '../../src/agents/activity-chain.js';
import { verifyActivityLog } from '../../src/storage/agent-activity.js';
import { databaseUrl, needs, type StorageBackend } from '../helpers/backends.js';
import { startTestGateway } from '../helpers/gateway.js';
import { MASTER_KEY } from '../helpers/portal.js';
import { runCli } from '../helpers/process.js';
import { registeredAgent, resourceOf, toolCall, x402Header } from '../mcp/helpers.js';

interface Row { tenant_id: string; seq: number; agent_id: string | null; kind: string; detail: string; created_at: number; prev_hash: string; hash: string }

for (const backend of ['sqlite', 'postgres'] as StorageBackend[]) {
  t.test(`${backend}: a rewritten and re-hashed activity log is reported as tampered`, backend === 'postgres' ? await needs('postgres') : {}, async (t) => {
    const url = await databaseUrl(t, backend);
    const gw = await startTestGateway(t, { databaseUrl: url, config: { masterKey: MASTER_KEY, mcpIpRatePerMinute: 100_000 } });
    const db = gw.services.storage.db;
    for (const tenant of ['acme', 'globex']) {
      const agent = await registeredAgent(gw, tenant);
      for (let i = 0; i < 3; i++) {
        const res = await toolCall(gw, 'filter', { content: 'hello' }, { 'payment-signature': await x402Header(agent.privateKey, { agent_id: agent.did, amount: '1', resource: resourceOf('filter') }) });
        t.equal(res.status, 200);
      }
    }
    const env = { DATABASE_URL: url, BASTION_MASTER_KEY: MASTER_KEY.toString('hex') };
    const verify = (tenant: string) => runCli(['agents', 'verify-log', '--tenant', tenant], env);
    const rows = async (tenant: string) =>
      (await db.selectFrom('agent_activity').selectAll().where('tenant_id', '=', tenant).orderBy('seq').execute()).map((r) => ({ ...r, seq: Number(r.seq), created_at: Number(r.created_at) })) as Row[];

    t.same(await verifyActivityLog(gw.services.storage, 'acme'), { tenant_id: 'acme', records: 4, intact: true }, 'registration and three payments, keyed');

    t.test('an amount rewritten, then the chain and head re-hashed with plain SHA-256', async (t) => {
      const chain = await rows('acme');
      const paid = chain.find((r) => r.kind === 'mcp.paid')!;
      let prev = chain[paid.seq - 2].hash;
      for (const r of chain.slice(paid.seq - 1)) {
        const detail = r.seq === paid.seq ? JSON.stringify({ ...JSON.parse(r.detail), amount: '0.00' }) : r.detail;
        const hash = recordHash({ ...r, detail, prev_hash: prev });
        await sql`update agent_activity set detail = ${detail}, prev_hash = ${prev}, hash = ${hash} where tenant_id = 'acme' and seq = ${r.seq}`.execute(db);
        prev = hash;
      }
      await sql`update agent_log_heads set hash = ${prev} where tenant_id = 'acme'`.execute(db);
      const res = await verify('acme');
      t.equal(res.code, 1, res.stdout);
      t.match(JSON.parse(res.stdout), { intact: false, first_break: { seq: paid.seq, reason: 'hash_mismatch' } });
    });

    t.test('the tail dropped and the head row set to the new last record', async (t) => {
      const chain = await rows('globex');
      const last = chain[chain.length - 2];
      await sql`delete from agent_activity where tenant_id = 'globex' and seq = ${chain.length}`.execute(db);
      await sql`update agent_log_heads set seq = ${last.seq}, hash = ${last.hash} where tenant_id = 'globex'`.execute(db);
      t.match(await verifyActivityLog(gw.services.storage, 'globex'), { intact: false, first_break: { seq: last.seq, reason: 'head_mismatch' } }, 'the head cannot be re-signed without the key');
    });

    // A CLI check that does not depend on the backend: once.
    if (backend === 'sqlite') {
      t.test('without the master key the log cannot be verified', async (t) => {
        const res = await runCli(['agents', 'verify-log', '--tenant', 'acme'], { DATABASE_URL: url });
        t.not(res.code, 0);
        t.match(res.stderr, /BASTION_MASTER_KEY/);
      });
    }
  });
}
