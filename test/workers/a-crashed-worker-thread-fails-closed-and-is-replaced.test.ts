import t from 'tap';
import type { BastionError } from '../../src/errors.js';
import { createInspectorPool } from '../../src/workers/pool.js';

const crashing = new URL('./fixtures/crashing-worker.mjs', import.meta.url);

for (const how of ['exit', 'async'] as const) {
  t.test(`a worker thread that dies (${how}) fails its inspection closed, and the pool keeps serving`, async (t) => {
    const pool = createInspectorPool({ threads: 1, maxQueue: 10, timeoutMs: 10_000, workerUrl: crashing });
    t.teardown(() => pool.close());
    t.equal((await pool.inspect([{ content: 'before', kind: 'prompt' }]))[0].allowed, true, 'the thread serves');

    // Tasks queued behind the crash must not be lost or answered with a default.
    const crash = pool.inspect([{ content: `CRASH:${how}`, kind: 'prompt' }]).catch((e: BastionError) => e);
    const queued = Array.from({ length: 3 }, (_, i) => pool.inspect([{ content: `queued ${i}`, kind: 'prompt' }]).catch((e: BastionError) => e));
    const err = (await crash) as BastionError;
    t.equal(err.code, 'BASTION_ERR_INSPECTION_FAILED', 'the request whose thread died is an error, never a verdict');
    t.equal(err.statusCode, 500);
    for (const [i, result] of (await Promise.all(queued)).entries()) {
      t.ok(Array.isArray(result) ? result[0].redacted_content === `queued ${i}` : (result as BastionError).code === 'BASTION_ERR_INSPECTION_FAILED', `queued task ${i}: its own verdict or a failure, nothing else`);
    }
    const after = await pool.inspect([{ content: 'after', kind: 'prompt' }]);
    t.equal(after[0].redacted_content, 'after', 'a replacement thread answers the next inspection');
  });
}
