import t from 'tap';
import { assertFamily, effectFlag } from '../../helpers/effect-cases.js';

// A history rewrite force-pushed to a default branch, or a remote default-branch delete, blocks; --force-with-lease on a feature branch and git reset --hard alone pass.
assertFamily(t, 'git');

t.test('the finding surfaces as a dangerous_effect flag naming the effect, never the content', async (t) => {
  const flag = effectFlag('git reset --hard HEAD~40 \&\& git push --force origin main', 'git_history_force_push');
  t.ok(flag, 'flagged as git_history_force_push');
  t.equal(flag?.category, 'dangerous_action');
  t.ok((flag?.score ?? 0) >= 0.75, 'scores at least HIGH');
  t.notMatch(flag?.detail ?? '', /HEAD~40/, 'detail names no content');
});
