import { Migrator } from 'kysely';
import t from 'tap';
import { migrate, openStorage } from '../../src/storage/database.js';
import { migrationProvider } from '../../src/storage/migrations/index.js';
import { claimAnalysis, finishAnalysis } from '../../src/storage/evolution-analyses.js';
import { activeFingerprint, activeRules, addFalsePositive, addHits, addProducer, findRule, insertRule, promoteRule, transitionRule } from '../../src/storage/evolved-rules.js';
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

    t.test('a rule is scoped to its tenant until enough tenants produced it, then global (migration 0005)', async (t) => {
      await insertRule(db, rule('evo_s', 'active', 100));
      const scopeOf = async () => (await activeRules(db, 100)).find((r) => r.id === 'evo_s');
      t.same(await scopeOf(), { id: 'evo_s', kind: 'phrase', pattern: 'pattern of evo_s', family: 'injection', tenantId: 'acme' });
      t.match(await findRule(db, 'evo_s'), { scope: 'tenant', tenants: 1 });
      t.equal(await addProducer(db, 'evo_s', 'acme', 101), 1, 'the first tenant counts once');
      t.equal(await addProducer(db, 'evo_s', 'globex', 102), 2);
      t.equal(await addProducer(db, 'evo_s', 'globex', 103), 2, 'idempotent per tenant');
      const before = await activeFingerprint(db);
      t.equal(await promoteRule(db, 'evo_s', 104), true);
      t.equal(await promoteRule(db, 'evo_s', 105), false, 'once');
      t.same(await scopeOf(), { id: 'evo_s', kind: 'phrase', pattern: 'pattern of evo_s', family: 'injection' }, 'global: no tenant');
      t.not(await activeFingerprint(db), before, 'replicas notice the promotion');
      await insertRule(db, { ...rule('evo_g', 'active', 106), tenant_id: null });
      t.match(await findRule(db, 'evo_g'), { scope: 'global', tenants: 0 }, 'a rule without a tenant is global');
    });
  });
}

for (const backend of ['sqlite', 'postgres'] as StorageBackend[]) {
  t.test(`${backend}: migration 0005 keeps a rule made before it to its own tenant`, backend === 'postgres' ? await needs('postgres') : {}, async (t) => {
    const storage = openStorage(await databaseUrl(t, backend));
    t.teardown(() => storage.close());
    const migrator = new Migrator({ db: storage.db, provider: migrationProvider(storage) });
    t.notOk((await migrator.migrateTo('0004-tenant-policies')).error);
    const db = storage.db as unknown as import('kysely').Kysely<Record<string, Record<string, unknown>>>;
    const legacy = { ...rule('evo_old', 'active', 1), updated_at: 1 };
    await db.insertInto('evolved_rules').values(legacy).execute();
    await db.insertInto('evolved_rules').values({ ...legacy, id: 'evo_ops', tenant_id: null }).execute();
    await migrate(storage);
    const rules = await activeRules(storage.db, 10);
    t.same(rules.map((r) => [r.id, r.tenantId]), [['evo_old', 'acme'], ['evo_ops', undefined]], 'a tenant\'s rule stays its own; one without a tenant stays global');
    t.match(await findRule(storage.db, 'evo_old'), { scope: 'tenant', tenants: 1 });
  });
}
