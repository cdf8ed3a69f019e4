import t from 'tap';
import { applyAssignments, defaultPolicy, effectivePolicy, wirePolicy } from '../../src/config/tenant-policy.js';

const defaults = defaultPolicy({ systemMessages: 'secrets_only', contentParts: 'inspect' });

t.test('tool_result_injection: quarantine by default, block by --set, anything else refused', async (t) => {
  t.equal(wirePolicy(effectivePolicy(defaults, undefined)).tool_result_injection, 'quarantine');
  const stored = applyAssignments({}, ['tool_result_injection=block']);
  t.same(stored, { tool_result_injection: 'block' });
  t.equal(effectivePolicy(defaults, stored).toolResultInjection, 'block');
  t.equal(wirePolicy(effectivePolicy(defaults, stored)).tool_result_injection, 'block');
  t.throws(() => applyAssignments({}, ['tool_result_injection=allow']), /invalid tenant policy/);
  t.same(applyAssignments(stored, [], ['tool_result_injection']), {}, 'unset returns to the default');
});
