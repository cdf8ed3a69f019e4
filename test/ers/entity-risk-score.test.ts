import { Redis } from 'ioredis';
import t from 'tap';
import { memoryErs, redisErs } from '../../src/ers/store.js';
import { REDIS_URL, needs, redisPrefix } from '../helpers/backends.js';

const HALF_LIFE = 60_000;

t.test('one attack among clean traffic does not ban; a run of attacks does; the ban decays', async (t) => {
  let now = 1_000_000;
  const ers = memoryErs(HALF_LIFE, () => now);
  t.same(await ers.read('acme'), { score: 0, shadowBanned: false });
  for (let i = 0; i < 20; i++) await ers.record('acme', ['LOW']);
  await ers.record('acme', ['BLOCK']);
  t.ok((await ers.read('acme')).score < 0.1, 'the denominator counts every request');

  const s = await ers.record('mallory', ['BLOCK']);
  t.equal(s.shadowBanned, false, 'a single blocked request never bans');
  let state = s;
  let n = 1;
  while (!state.shadowBanned && n < 50) {
    state = await ers.record('mallory', ['BLOCK']);
    n++;
  }
  t.ok(state.shadowBanned, 'a run of blocked requests bans');
  t.ok(state.score >= 0.75, 'at the SPEC threshold 0.75');
  t.ok(n >= 4 && n <= 15, `banned after ${n} consecutive blocks`);

  while (n < 10) {
    await ers.record('mallory', ['BLOCK']);
    n++;
  }
  now += HALF_LIFE;
  t.equal((await ers.read('mallory')).shadowBanned, true, 'a persistent attacker stays banned through a half-life of silence');
  now += 3 * HALF_LIFE;
  t.equal((await ers.read('mallory')).shadowBanned, false, 'scores decay, so a quiet entity recovers');
  const fresh = memoryErs(HALF_LIFE, () => now);
  for (let i = 0; i < 12; i++) await fresh.record('eve', ['BLOCK']);
  for (let i = 0; i < 40; i++) await fresh.record('eve', ['LOW']);
  t.equal((await fresh.read('eve')).shadowBanned, false, 'clean requests bring a banned entity back');
});

t.test('Redis ERS: replicas share one score per entity', await needs('redis'), async (t) => {
  const a = new Redis(REDIS_URL);
  const b = new Redis(REDIS_URL);
  t.teardown(() => {
    a.disconnect();
    b.disconnect();
  });
  const prefix = redisPrefix();
  const ersA = redisErs(a, prefix, HALF_LIFE);
  const ersB = redisErs(b, prefix, HALF_LIFE);
  for (let i = 0; i < 6; i++) await ersA.record('acme', ['BLOCK']);
  for (let i = 0; i < 6; i++) await ersB.record('acme', ['BLOCK']);
  const seenByA = await ersA.read('acme');
  const seenByB = await ersB.read('acme');
  t.equal(seenByA.score, seenByB.score);
  t.ok(seenByA.shadowBanned, '12 blocks split over two replicas ban the entity');
  t.same(await ersA.read('other'), { score: 0, shadowBanned: false });
});
