import t from 'tap';
import inspectTask, { type InspectResult, type ScopedRequest } from '../../src/workers/inspect-task.js';
import type { Verdict } from '../../src/inspect/types.js';

// Issue 10: requests of several tenants share one pool task (coalescing); a tenant's own evolved rule judges that
// tenant's requests only, a global rule judges everybody's.
const TEXT = 'Status update: the dragon protocol override is scheduled for Monday.';
const rules = [
  { id: 'evo_a', kind: 'phrase' as const, pattern: 'dragon protocol override', tenantId: 'a' },
  { id: 'evo_g', kind: 'phrase' as const, pattern: 'scheduled for monday', tenantId: undefined },
];
const ruleFlags = (v: Verdict) => v.flags.filter((f) => f.type === 'evolved_rule').map((f) => f.detail).sort();

t.test('one task, three tenants: each request is judged by the global rules and its own tenant rules only', async (t) => {
  const requests: ScopedRequest[] = [
    { content: TEXT, kind: 'prompt', rulesTenant: 'a' },
    { content: TEXT, kind: 'prompt', rulesTenant: 'b' },
    { content: TEXT, kind: 'prompt' },
    { content: TEXT, kind: 'prompt', rulesTenant: 'a' },
  ];
  const result = inspectTask({ requests, rulesVersion: 7, rules: rules.map(({ tenantId, ...r }) => (tenantId ? { ...r, tenantId } : r)) }) as Extract<InspectResult, { verdicts: Verdict[] }>;
  t.same(result.verdicts.map(ruleFlags), [['evo_a', 'evo_g'], ['evo_g'], ['evo_g'], ['evo_a', 'evo_g']]);
  t.equal(result.rulesVersion, 7);

  const promoted = inspectTask({ requests: requests.slice(1, 3), rulesVersion: 8, rules: rules.map(({ tenantId: _, ...r }) => r) }) as Extract<InspectResult, { verdicts: Verdict[] }>;
  t.same(promoted.verdicts.map(ruleFlags), [['evo_a', 'evo_g'], ['evo_a', 'evo_g']], 'once global, every tenant');
});
