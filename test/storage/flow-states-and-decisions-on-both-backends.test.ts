import t from 'tap';
import { flowsCommand } from '../../src/cli/flows.js';
import { loadConfig } from '../../src/config/load.js';
import { migrate, openStorage } from '../../src/storage/database.js';
import { consumeApproval, findFlowDecision, listFlowDecisions, loadFlowState, recordFlowDecision, saveFlowState, settleApproval, sweepExpired } from '../../src/storage/flows.js';
import { databaseUrl, needs, type StorageBackend } from '../helpers/backends.js';

const STATE = { v: 1 as const, sources: [{ tool: 'read_inbox', kind: 'untrusted' as const }], untrusted: [['aGFzaA', 0]] as [string, number][], trusted: [], named: [], calls: [], untrusted_seen: true, private_seen: false };
const decision = (status: string) => ({ tenant_id: 'acme', api: 'chat', tool: 'send_email', flow: 'untrusted_to_sink', sink: 'name', action: 'require_approval', status, fingerprint: 'fp1', detail: JSON.stringify({ tainted_by: [{ tool: 'read_inbox' }], tainted_fields: ['to'], unknown_destinations: [] }), request_id: 'req_1' });

/** Runs `bastion flows …` in-process and returns its exit code and printed JSON. */
async function cli(url: string, argv: string[]): Promise<{ code: number; out: unknown }> {
  const write = process.stdout.write.bind(process.stdout);
  const writeErr = process.stderr.write.bind(process.stderr);
  let printed = '';
  process.stdout.write = ((chunk: string) => ((printed += chunk), true)) as typeof process.stdout.write;
  process.stderr.write = (() => true) as typeof process.stderr.write;
  try {
    const code = await flowsCommand(loadConfig({ DATABASE_URL: url }), argv);
    return { code, out: printed ? JSON.parse(printed) : undefined };
  } finally {
    process.stdout.write = write;
    process.stderr.write = writeErr;
  }
}

for (const backend of ['sqlite', 'postgres'] as StorageBackend[]) {
  t.test(`${backend}: flow states and decisions`, backend === 'postgres' ? await needs('postgres') : {}, async (t) => {
    const url = await databaseUrl(t, backend);
    const storage = openStorage(url);
    t.teardown(() => storage.close());
    t.ok((await migrate(storage)).includes('0012-flow-policies'), 'the migration applies');

    t.test('a state reads back per tenant and key, is replaced on write, and expires', async (t) => {
      await saveFlowState(storage.db, 'acme', 'response:r1', STATE, 60_000);
      t.same(await loadFlowState(storage.db, 'acme', 'response:r1'), STATE);
      t.equal(await loadFlowState(storage.db, 'globex', 'response:r1'), undefined, 'another tenant reads nothing');
      await saveFlowState(storage.db, 'acme', 'response:r1', { ...STATE, untrusted_seen: false }, 60_000);
      t.equal((await loadFlowState(storage.db, 'acme', 'response:r1'))!.untrusted_seen, false);
      await saveFlowState(storage.db, 'acme', 'response:old', STATE, -1);
      t.equal(await loadFlowState(storage.db, 'acme', 'response:old'), undefined, 'an expired state is never read');
      await sweepExpired(storage.db, Date.now());
      t.equal((await storage.db.selectFrom('flow_states').select('key').execute()).length, 1, 'the sweep removed it');
    });

    t.test('an approval is given once and used once', async (t) => {
      const row = await recordFlowDecision(storage.db, decision('pending'), 60_000);
      t.equal((await findFlowDecision(storage.db, 'acme', 'fp1', ['pending']))!.id, row.id);
      t.equal(await settleApproval(storage.db, 'globex', row.id, 'approved', 'x', 60_000), undefined, "another tenant's id is not found");
      const settled = await settleApproval(storage.db, 'acme', row.id, 'approved', 'account:a1', 60_000);
      t.same([settled!.changed, settled!.row.status, settled!.row.decided_by], [true, 'approved', 'account:a1']);
      t.equal((await settleApproval(storage.db, 'acme', row.id, 'denied', 'x', 60_000))!.changed, false, 'a decided call stays decided');
      t.equal(await consumeApproval(storage.db, 'acme', row.id), true);
      t.equal(await consumeApproval(storage.db, 'acme', row.id), false, 'a second retry finds it used');
    });

    t.test('the CLI lists pending calls and settles them', async (t) => {
      const row = await recordFlowDecision(storage.db, decision('pending'), 60_000);
      await recordFlowDecision(storage.db, decision('refused'), 60_000);
      const listed = await cli(url, ['approvals', 'list', '--tenant', 'acme']);
      t.same((listed.out as { id: string }[]).map((d) => d.id), [row.id], 'pending only by default');
      t.equal((await cli(url, ['approvals', 'deny', row.id, '--tenant', 'acme'])).code, 0);
      t.equal((await cli(url, ['approvals', 'approve', row.id, '--tenant', 'acme'])).code, 1, 'a denied call cannot be approved');
      t.equal((await listFlowDecisions(storage.db, 'acme', { status: 'refused', limit: 10 })).length, 1);
      await t.rejects(cli(url, ['approvals', 'approve', 'not-an-id', '--tenant', 'acme']), /Usage|flows approvals/);
    });
  });
}
