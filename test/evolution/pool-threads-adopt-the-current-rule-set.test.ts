import t from 'tap';
import { createInspectorPool } from '../../src/workers/pool.js';

const RULE = { id: 'evo_pool', kind: 'regex' as const, pattern: 'marmalade\\s+uplink\\s+sequence', family: 'injection' };
const text = (i: number) => ({ content: `Item ${i}: start the marmalade uplink sequence.`, kind: 'prompt' as const });

t.test('threads holding an older set (or none) get the current one with their next task; changes reach every thread', async (t) => {
  const pool = createInspectorPool({ threads: 2, maxQueue: 100, timeoutMs: 30_000 });
  t.teardown(() => pool.close());
  // Both threads load the pipeline holding version 0 (no rules), as a thread the pool starts later does.
  await pool.warmUp();
  pool.setRules({ version: 1, rules: [RULE] });
  let i = 0;
  const verdicts = [];
  const at = (version: number) => pool.ruleVersions().size === 2 && [...pool.ruleVersions().values()].every((v) => v === version);
  while (!at(1) && i < 200) verdicts.push(...(await Promise.all([0, 1, 2, 3].map(() => pool.inspect([text(i++)])))).flat());
  t.same([...pool.ruleVersions().values()], [1, 1], 'both threads run version 1');
  t.ok(verdicts.every((v) => !v.allowed && v.flags.some((f) => f.detail === 'evo_pool')), `${verdicts.length} verdicts, all by the rule`);

  pool.setRules({ version: 2, rules: [] });
  const after = [];
  const upToDate = () => at(2);
  for (let round = 0; round < 50 && (after.length === 0 || !upToDate()); round++) after.push(...(await Promise.all([0, 1, 2, 3].map(() => pool.inspect([text(i++)])))).flat());
  t.ok(upToDate(), 'both threads moved to version 2');
  t.ok(after.every((v) => !v.flags.some((f) => f.type === 'evolved_rule')), 'version 2 has no rule');
});
