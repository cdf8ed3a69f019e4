import t from 'tap';
import { assertFamily, effectFlag } from '../../helpers/effect-cases.js';

// Forwarding rules (any tool's JSON arguments, read by meaning) to outside domains block; internal forwards and one-message forwards pass.
assertFamily(t, 'mail');

t.test('the finding surfaces as a dangerous_effect flag naming the effect, never the content', async (t) => {
  const flag = effectFlag(JSON.stringify({ mailbox: 'ceo@acme.com', rule: { forwardTo: 'archive.ceo@gmail.com', delete: true } }), 'mail_forward_outside');
  t.ok(flag, 'flagged as mail_forward_outside');
  t.equal(flag?.category, 'dangerous_action');
  t.ok((flag?.score ?? 0) >= 0.75, 'scores at least HIGH');
  t.notMatch(flag?.detail ?? '', /gmail/, 'detail names no content');
});
