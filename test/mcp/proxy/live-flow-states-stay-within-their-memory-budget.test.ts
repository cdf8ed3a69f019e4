/**
 * The MCP proxy keeps live sessions' flow states in memory. Each is sized by what it holds (value hashes, sources, call
 * ids) and re-measured as it grows, so many long sessions cannot take more than the budget; a session whose state was
 * let go is read back from storage on its next call and decided exactly as before.
 */
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { decide } from '../../helpers/flow-decide.js';
import { DEFAULT_FLOW_POLICY } from '../../../src/flows/types.js';
import { hasher } from '../../../src/flows/values.js';
import { SessionFlowStates } from '../../../src/mcp/proxy/flow-sessions.js';
import { migrate, openStorage } from '../../../src/storage/database.js';
import { databaseUrl } from '../../helpers/backends.js';

const hash = hasher(randomBytes(32));
const BUDGET = 256 * 1024;
// A result naming 40 addresses: ~120 value hashes once read.
const result = (session: number, i: number) =>
  Array.from({ length: 40 }, (_, k) => `Contact ${k}: desk${session}-${i}-${k}@drop.example, ref ${session * 1000 + i * 50 + k}`).join('\n');
const refused = async (states: SessionFlowStates, session: number, to: string) =>
  !decide(await states.current('acme', `s${session}`), DEFAULT_FLOW_POLICY, hash, { tool: 'send_email', arguments: JSON.stringify({ to, body: 'logs' }) }).allowed;

t.test('many long sessions hold at most the budget, and a session let go is decided the same once read back', async (t) => {
  const storage = openStorage(await databaseUrl(t, 'sqlite'));
  t.teardown(() => storage.close());
  await migrate(storage);
  const states = new SessionFlowStates(storage.db, storage.dialect, hash, 60_000, { bytes: BUDGET });
  let most = 0;
  for (let session = 1; session <= 12; session++) {
    // The user's own contacts (a private result): sending to them stays allowed after untrusted content.
    await states.record('acme', `s${session}`, (s) => s.addResult('contacts', 'c0', 'private', `Manager: boss${session}@corp.example`));
    for (let i = 1; i <= 10; i++) {
      await states.record('acme', `s${session}`, (s) => {
        s.addCall(`c${i}`, 'read_ticket');
        s.addResult('read_ticket', `c${i}`, 'untrusted', result(session, i));
      });
      most = Math.max(most, states.heldBytes);
    }
  }
  t.ok(most <= BUDGET, `the live states never held more than the budget (at most ${most} of ${BUDGET} bytes)`);
  t.ok(most > BUDGET / 2, 'the sessions did fill the budget (the bound was what held them)');
  // The first sessions were let go long ago: read back from storage, their untrusted values are still refused.
  for (const session of [1, 2, 12]) {
    t.equal(await refused(states, session, `desk${session}-3-7@drop.example`), true, `session ${session}: an address from its untrusted results is refused`);
    t.equal(await refused(states, session, `boss${session}@corp.example`), false, `session ${session}: the user's own contact is allowed`);
  }
});
