import t from 'tap';
import { migrate, openStorage } from '../../src/storage/database.js';
import { claimAnalysis, finishAnalysis } from '../../src/storage/evolution-analyses.js';
import { activeFingerprint, activeRules, addFalsePositive, addHits, findRule, insertRule, transitionRule } from '../../src/storage/evolved-rules.js';
import { recordFeedback } from '../../src/storage/rule-feedback.js';
import { databaseUrl, needs, type StorageBackend } from '../helpers/backends.js';

const HASH = 'a'.repeat(64);
const rule = (id: string, status: 'active' | 'pending', created_at: number) => ({
  id,
  kind: 'phrase' as const,
  pattern: `pattern of ${id}`,
  family: 'injection',
  status,
  source: 'offline',
  model: null,
  attack_type: null,
  explanation: null,
  content_hash: HASH,
  tenant_id: 'acme',
  reason: null,
  created_at,
});

for (const backend of ['sqlite', 'postgres'] as StorageBackend[]) {
  t.test(`${backend}: the evolution tables`, backend === 'postgres' ? await needs('postgres') : {}, async (t) => {
    const storage = openStorage(await databaseUrl(t, backend));
    t.teardown(() => storage.close());
    await migrate(storage);
    const db = storage.db;

    t.test('an attack is claimed once; a failed analysis may be retried after the cooldown, a finished one never', async (t) => {
      const claim = { contentHash: HASH, tenantId: 'acme', kind: 'prompt', origin: 'verdict' as const, analyser: 'offline' };
      t.equal(await claimAnalysis(db, claim, 1000, 10_000), true);
      t.equal(await claimAnalysis(db, claim, 1000, 10_001), false, 'running elsewhere');
      await finishAnalysis(db, HASH, 'failed', { reason: 'llm_timeout' }, 10_002);
      t.equal(await claimAnalysis(db, claim, 1000, 10_500), false, 'within the cooldown');
      t.equal(await claimAnalysis(db, claim, 1000, 11_001), true, 'after it');
      await finishAnalysis(db, HASH, 'rule', { ruleId: 'evo_x' }, 11_002);
      t.equal(await claimAnalysis(db, claim, 1000, 99_999), false, 'a rule was made: never again');
    });

    t.test('active rules, transitions, counters and the fingerprint', async (t) => {
      await insertRule(db, rule('evo_b', 'active', 2));
      await insertRule(db, rule('evo_a', 'active', 1));
      await insertRule(db, rule('evo_p', 'pending', 3));
      t.same((await activeRules(db, 10)).map((r) => r.id), ['evo_a', 'evo_b'], 'oldest first, active only');
      t.same((await activeRules(db, 1)).map((r) => r.id), ['evo_a'], 'bounded');
      const before = await activeFingerprint(db);
      await addHits(db, new Map([['evo_a', 3], ['evo_b', 1]]));
      await addHits(db, new Map([['evo_a', 2]]));
      t.equal(Number((await findRule(db, 'evo_a'))!.hits), 5);
      t.same(await addFalsePositive(db, 'evo_a'), { reports: 1, status: 'active' });
      t.equal(await activeFingerprint(db), before, 'counters do not change the fingerprint');
      t.equal(await transitionRule(db, 'evo_p', ['active'], 'disabled', null, 50), undefined, 'wrong state: no change');
      t.match(await transitionRule(db, 'evo_p', ['pending'], 'active', null, 50), { status: 'active' });
      t.not(await activeFingerprint(db), before, 'a status change does');
    });

    t.test('one feedback report per tenant and request', async (t) => {
      const row = { tenant_id: 'acme', request_id: 'req-1', type: 'false_positive' as const, rule_id: 'evo_a', content_hash: null, created_at: 1 };
      t.equal(await recordFeedback(db, row), true);
      t.equal(await recordFeedback(db, row), false);
      t.equal(await recordFeedback(db, { ...row, tenant_id: 'globex' }), true);
    });
  });
}
