import t from 'tap';
import { assertFamily, effectFlag } from '../../helpers/effect-cases.js';

// Whole contact lists and customer exports sent outside, to buckets or webhooks, or shared publicly, block; single records and internal recipients pass.
assertFamily(t, 'bulk-export');

t.test('the finding surfaces as a dangerous_effect flag naming the effect, never the content', async (t) => {
  const flag = effectFlag(JSON.stringify({ to: 'someone@gmail.com', subject: 'contacts', attachments: ['all_contacts.csv'] }), 'bulk_export_outside');
  t.ok(flag, 'flagged as bulk_export_outside');
  t.equal(flag?.category, 'dangerous_action');
  t.ok((flag?.score ?? 0) >= 0.75, 'scores at least HIGH');
  t.notMatch(flag?.detail ?? '', /contacts/, 'detail names no content');
});
