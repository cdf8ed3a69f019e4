import t from 'tap';
import { migrate, openStorage } from '../../src/storage/database.js';
import { executeMandate } from '../../src/storage/mandates.js';
import { issueChallenge } from '../../src/storage/agent-challenges.js';
import { createAgent } from '../../src/storage/agents.js';
import { ensureTenant } from '../../src/storage/tenants.js';
import { databaseUrl, needs, type StorageBackend } from '../helpers/backends.js';
import { MASTER_KEY } from '../helpers/portal.js';

// The monthly limit can only differ from the daily one across days, so this runs the one-transaction decision at fixed
// instants (the 2nd and the 15th of a month, UTC) instead of the wall clock.
const DAY2 = Date.UTC(2026, 5, 2, 12);
const DAY15 = Date.UTC(2026, 5, 15, 12);
const NEXT_MONTH = Date.UTC(2026, 6, 1, 0, 0, 0, 1);

for (const backend of ['sqlite', 'postgres'] as StorageBackend[]) {
  t.test(`${backend}: the monthly limit counts spend of earlier days of the UTC month, and a new month starts at 0`, backend === 'postgres' ? await needs('postgres') : {}, async (t) => {
    const storage = openStorage(await databaseUrl(t, backend), { masterKey: MASTER_KEY });
    t.teardown(() => storage.close());
    await migrate(storage);
    await ensureTenant(storage.db, 'acme', 'professional');
    const limits = { currency: 'USD', max_per_transaction: 100, max_daily: 100, max_monthly: 150, allowed_payees: '["bastion:tools"]', expires_at: null };
    const did = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
    // The route checks the proof's signature; storage only spends the challenge.
    const { challenge } = (await issueChallenge(storage.db, 'acme', did, DAY2))!;
    const created = await createAgent(storage, { tenantId: 'acme', displayName: 'm', did, limits, challenge }, DAY2);
    if (!('agent' in created)) throw new Error(`not created: ${created.refused}`);
    const agent = created.agent;
    let n = 0;
    const spend = async (amount: number, now: number) => {
      n += 1;
      const hash = String(n).padStart(64, '0');
      await storage.db.insertInto('agent_quotes').values({ quote_id: `quo_${n}`, quote_hash: hash, tenant_id: 'acme', agent_id: agent.agent_id, item: 'tool:filter', payee: 'bastion:tools', amount, currency: 'USD', created_at: now, expires_at: now + 60_000, used_at: null }).execute();
      const outcome = await executeMandate(storage, { tenantId: 'acme', agentId: agent.agent_id, quoteHash: hash, verify: async () => true, answer: () => ({ status: 0, body: null }) }, now);
      return 'approved' in outcome ? 'approved' : 'refused' in outcome ? outcome.refused : 'replay';
    };
    t.equal(await spend(100, DAY2), 'approved', 'day 2: 1.00 of a 1.00 daily limit');
    t.equal(await spend(60, DAY15), 'LIMIT_MONTHLY', 'day 15: 1.00 + 0.60 > 1.50 this month, though the day is fresh');
    t.equal(await spend(50, DAY15), 'approved', 'exactly 1.50 this month');
    t.equal(await spend(1, DAY15), 'LIMIT_MONTHLY');
    t.equal(await spend(100, NEXT_MONTH), 'approved', 'a new UTC month starts at 0');
  });
}
