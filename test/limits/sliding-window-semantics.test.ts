import { Redis } from 'ioredis';
import t from 'tap';
import { memoryWindow } from '../../src/limits/memory-window.js';
import { redisWindow } from '../../src/limits/redis-window.js';
import { REDIS_URL, needs, redisPrefix } from '../helpers/backends.js';

t.test('in-process window slides: a slot frees exactly when the oldest request leaves the window', async (t) => {
  let now = 0;
  const w = memoryWindow(1000, () => now);
  for (const at of [0, 10_000, 20_000]) {
    now = at;
    t.equal((await w.consume('k', 3, 60_000)).allowed, true);
  }
  now = 30_000;
  const full = await w.consume('k', 3, 60_000);
  t.match(full, { allowed: false, remaining: 0, resetMs: 30_000 }, 'the request at t=0 leaves at t=60s');
  now = 59_999;
  t.equal((await w.consume('k', 3, 60_000)).allowed, false);
  now = 60_000;
  t.match(await w.consume('k', 3, 60_000), { allowed: true, remaining: 0, resetMs: 10_000 }, 'a fixed window would have reset everything here');
  now = 60_001;
  t.equal((await w.consume('k', 3, 60_000)).allowed, false, 'still only 3 in any 60 s');
});

t.test('in-process window memory is bounded by bytes, least recently used keys first', async (t) => {
  const w = memoryWindow(300); // room for two one-entry logs
  await w.consume('a', 1, 60_000);
  await w.consume('b', 1, 60_000);
  await w.consume('c', 1, 60_000);
  t.equal((await w.consume('c', 1, 60_000)).allowed, false, 'recent keys keep their log');
  t.equal((await w.consume('a', 1, 60_000)).allowed, true, 'the oldest key was dropped to stay within the budget');

  const busy = memoryWindow(1000);
  await busy.consume('quiet', 1, 60_000);
  for (let i = 0; i < 100; i++) await busy.consume('busy', 100, 60_000);
  t.equal((await busy.consume('busy', 100, 60_000)).allowed, false, 'the busy key keeps its whole log');
  t.equal((await busy.consume('quiet', 1, 60_000)).allowed, true, 'a log that grew counts against the budget: the quiet key was dropped');
});

t.test('Redis window: same semantics, atomic under concurrency', await needs('redis'), async (t) => {
  const redis = new Redis(REDIS_URL);
  t.teardown(() => redis.disconnect());
  const w = redisWindow(redis, redisPrefix());
  const results = await Promise.all(Array.from({ length: 25 }, () => w.consume('k', 10, 1000)));
  t.equal(results.filter((r) => r.allowed).length, 10, 'exactly the limit admitted from 25 concurrent calls');
  const denied = results.find((r) => !r.allowed)!;
  t.ok(denied.resetMs > 0 && denied.resetMs <= 1000);
  await new Promise((r) => setTimeout(r, 1100));
  t.equal((await w.consume('k', 10, 1000)).allowed, true, 'the window slid on');
});
