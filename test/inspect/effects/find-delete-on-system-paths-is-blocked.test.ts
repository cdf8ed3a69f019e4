import t from 'tap';
import { assertFamily, effectFlag } from '../../helpers/effect-cases.js';

// find -delete / -exec rm over the root, home or system directories with no narrowing test blocks; project clean-ups pass.
assertFamily(t, 'find-delete');

t.test('the finding surfaces as a dangerous_effect flag naming the effect, never the content', async (t) => {
  const flag = effectFlag("find / -xdev -name '*' -delete", 'destroy_root_or_system');
  t.ok(flag, 'flagged as destroy_root_or_system');
  t.equal(flag?.category, 'dangerous_action');
  t.ok((flag?.score ?? 0) >= 0.75, 'scores at least HIGH');
  t.notMatch(flag?.detail ?? '', /xdev/, 'detail names no content');
});
