import t from 'tap';
import { assertFamily, effectFlag } from '../../helpers/effect-cases.js';

// HTTP calls to cloud instance-metadata endpoints block; internal HTTP calls and firewall rules naming the endpoint pass.
assertFamily(t, 'metadata-http');

t.test('the finding surfaces as a dangerous_effect flag naming the effect, never the content', async (t) => {
  const flag = effectFlag('curl http://169.254.169.254/latest/meta-data/iam/security-credentials/', 'cloud_metadata');
  t.ok(flag, 'flagged as cloud_metadata');
  t.equal(flag?.category, 'dangerous_action');
  t.ok((flag?.score ?? 0) >= 0.75, 'scores at least HIGH');
  t.notMatch(flag?.detail ?? '', /security-credentials/, 'detail names no content');
});
