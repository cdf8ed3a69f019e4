import t from 'tap';
import { assertFamily, effectFlag } from '../../helpers/effect-cases.js';

// Cloud and cluster CLIs: destroying projects, groups, clusters, namespaces, buckets, databases; public access; credential grants; production-scoped deletes. Read-only verbs and dev namespaces pass.
assertFamily(t, 'cloud');

t.test('the finding surfaces as a dangerous_effect flag naming the effect, never the content', async (t) => {
  const flag = effectFlag('gcloud projects delete acme-billing-prod --quiet', 'cloud_destroy');
  t.ok(flag, 'flagged as cloud_destroy');
  t.equal(flag?.category, 'dangerous_action');
  t.ok((flag?.score ?? 0) >= 0.75, 'scores at least HIGH');
  t.notMatch(flag?.detail ?? '', /acme-billing/, 'detail names no content');
});
