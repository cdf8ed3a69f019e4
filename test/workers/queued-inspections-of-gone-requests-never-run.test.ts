import t from 'tap';
import { createInspectorPool } from '../../src/workers/pool.js';

const fixture = new URL('./fixtures/steady-worker.mjs', import.meta.url);
const turn = () => new Promise((r) => setImmediate(r));

t.test('inspections whose requests are gone are dropped from the queue, and the next request is served next', async (t) => {
  const pool = createInspectorPool({ threads: 1, maxQueue: 8, timeoutMs: 30_000, workerUrl: fixture });
  t.teardown(() => pool.close());
  await pool.warmUp();
  // Nine requests, each in its own event-loop turn so each becomes its own task: one runs, eight wait.
  const clients = Array.from({ length: 9 }, () => new AbortController());
  const pending: Promise<unknown>[] = [];
  for (const [i, c] of clients.entries()) {
    pending.push(pool.inspect([{ content: `flood ${i}`, kind: 'prompt' }], c.signal).catch((e: Error) => e));
    await turn();
    await turn();
  }
  t.same({ started: pool.counts().started, queued: pool.counts().queued }, { started: 1, queued: 8 }, 'the queue is full');
  t.equal(((await pool.inspect([{ content: 'one too many', kind: 'prompt' }]).catch((e) => e)) as { statusCode: number }).statusCode, 503);

  // Every client goes away (answered 504 elsewhere, or disconnected).
  for (const c of clients) c.abort();
  await turn();
  const probe = await pool.inspect([{ content: 'probe', kind: 'prompt' }], new AbortController().signal);
  t.equal(probe.length, 1, 'the probe is answered');
  const counts = pool.counts();
  t.equal(counts.cancelled, 8, 'the eight queued inspections were dropped');
  t.equal(counts.started, 2, 'only the inspection already running and the probe ran');
  await Promise.all(pending);
});

t.test('a request that leaves while waiting is dropped alone: its neighbour and a request without a signal are still inspected', async (t) => {
  const pool = createInspectorPool({ threads: 1, maxQueue: 8, timeoutMs: 30_000, workerUrl: fixture });
  t.teardown(() => pool.close());
  await pool.warmUp();
  const blocker = pool.inspect([{ content: 'running', kind: 'prompt' }]);
  await turn();
  await turn();
  const gone = new AbortController();
  // Same turn, the thread busy: both wait for it together; one leaving must not cost the other its verdict.
  const a = pool.inspect([{ content: 'a', kind: 'prompt' }], gone.signal).catch((e: Error) => e);
  const b = pool.inspect([{ content: 'b', kind: 'prompt' }], new AbortController().signal);
  await turn();
  await turn();
  gone.abort();
  t.equal((await b).length, 1, 'the neighbour is inspected');
  t.match(await a, { name: 'AbortError' }, 'the request that left is answered as gone');
  t.equal((await blocker).length, 1, 'the request without a signal is inspected');
  t.same({ cancelled: pool.counts().cancelled, started: pool.counts().started }, { cancelled: 1, started: 2 }, 'the gone request never ran; the other went in the next task');
});
