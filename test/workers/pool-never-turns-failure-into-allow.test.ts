import t from 'tap';
import type { BastionError } from '../../src/errors.js';
import { createInspectorPool } from '../../src/workers/pool.js';

const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url);

t.test('the real pool runs the pipeline and returns one verdict per request', async (t) => {
  const pool = createInspectorPool({ threads: 1, maxQueue: 10, timeoutMs: 10_000 });
  t.teardown(() => pool.close());
  // As the gateway does before listening: the deadline is for inspections, not for loading parsers and models.
  await pool.warmUp();
  const verdicts = await pool.inspect([
    { content: 'What is the capital of France?', kind: 'prompt' },
    { content: 'ls -la', kind: 'tool_call' },
  ]);
  t.equal(verdicts.length, 2);
  t.equal(verdicts[0].allowed, true);
  t.ok(verdicts[0].timings_ms.total >= 0);
  t.same(Object.keys(verdicts[0].timings_ms).slice(0, 9), ['topology', 'obfuscation', 'secrets', 'semantic', 'hyperbolic', 'causal', 'phishing', 'ers', 'decision']);
});

t.test('a detector that throws → INSPECTION_FAILED (500), not a verdict', async (t) => {
  const pool = createInspectorPool({ threads: 1, maxQueue: 10, timeoutMs: 10_000, workerUrl: fixture('throwing-worker.mjs') });
  t.teardown(() => pool.close());
  const err = (await pool.inspect([{ content: 'x', kind: 'prompt' }]).catch((e) => e)) as BastionError;
  t.equal(err.code, 'BASTION_ERR_INSPECTION_FAILED');
  t.equal(err.statusCode, 500);
});

t.test('a missed deadline → INSPECTION_TIMEOUT (504), and the pool keeps serving', async (t) => {
  const pool = createInspectorPool({ threads: 1, maxQueue: 10, timeoutMs: 100, workerUrl: fixture('slow-worker.mjs') });
  t.teardown(() => pool.close());
  const err = (await pool.inspect([{ content: 'x', kind: 'prompt' }]).catch((e) => e)) as BastionError;
  t.equal(err.code, 'BASTION_ERR_INSPECTION_TIMEOUT');
  t.equal(err.statusCode, 504);
});

t.test('a saturated queue → OVERLOADED (503) with Retry-After: back-pressure, not unbounded memory', async (t) => {
  const pool = createInspectorPool({ threads: 1, maxQueue: 2, timeoutMs: 20_000, workerUrl: fixture('slow-worker.mjs') });
  t.teardown(() => pool.close());
  await pool.inspect([{ content: 'warm-up', kind: 'prompt' }]);
  const results = await Promise.allSettled(Array.from({ length: 6 }, () => pool.inspect([{ content: 'x', kind: 'prompt' }])));
  const overloaded = results.filter((r) => r.status === 'rejected' && (r.reason as BastionError).code === 'BASTION_ERR_OVERLOADED');
  t.ok(overloaded.length >= 3, `${overloaded.length} of 6 refused at once`);
  t.equal((overloaded[0] as PromiseRejectedResult).reason.headers['retry-after'], '1');
});
