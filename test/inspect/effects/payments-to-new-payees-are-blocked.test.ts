import t from 'tap';
import { assertFamily, effectFlag } from '../../helpers/effect-cases.js';

// Payments to new payees or raw account details block; payments to payees the arguments mark as known pass.
assertFamily(t, 'payments');

t.test('the finding surfaces as a dangerous_effect flag naming the effect, never the content', async (t) => {
  const flag = effectFlag(JSON.stringify({ amount: 9800, currency: 'EUR', iban: 'DE89370400440532013000' }), 'payment_new_payee');
  t.ok(flag, 'flagged as payment_new_payee');
  t.equal(flag?.category, 'dangerous_action');
  t.ok((flag?.score ?? 0) >= 0.75, 'scores at least HIGH');
  t.notMatch(flag?.detail ?? '', /DE89/, 'detail names no content');
});
