import t from 'tap';
import { assertFamily, effectFlag } from '../../helpers/effect-cases.js';

// Constant variables, aliases, eval and computable substitutions (printf, echo | base64 -d, rev) are resolved before judging.
assertFamily(t, 'shell-indirection');

t.test('the finding surfaces as a dangerous_effect flag naming the effect, never the content', async (t) => {
  const flag = effectFlag('RM=rm; F=-rf; T=/; $RM $F $T*', 'destroy_root_or_system');
  t.ok(flag, 'flagged as destroy_root_or_system');
  t.equal(flag?.category, 'dangerous_action');
  t.ok((flag?.score ?? 0) >= 0.75, 'scores at least HIGH');
  t.notMatch(flag?.detail ?? '', /RM=rm/, 'detail names no content');
});
