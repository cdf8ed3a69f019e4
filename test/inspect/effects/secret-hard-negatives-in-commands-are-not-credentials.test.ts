import t from 'tap';
import { inspect } from '../../../src/inspect/pipeline.js';
import { assertFamily, effectCases } from '../../helpers/effect-cases.js';

// Hashes, digests, UUIDs, public keys and fingerprints, placeholders and vendors' documented example keys inside
// shell commands are not credentials in tool_call traffic; real-format high-entropy secrets still are.
assertFamily(t, 'secret-hard-negatives');

t.test('look-alikes raise no credential finding and no secret_exfiltration flag', async (t) => {
  for (const c of effectCases('secret-hard-negatives').filter((c) => c.label === 'benign')) {
    const v = inspect({ content: c.text, kind: 'tool_call' });
    t.same(v.secrets.filter((s) => !s.pii), [], c.text.slice(0, 90));
    t.notOk(v.flags.some((f) => f.type === 'secret_exfiltration'), `no exfiltration flag: ${c.text.slice(0, 60)}`);
  }
});

t.test('real-format secrets are still found and blocked as exfiltration', async (t) => {
  for (const c of effectCases('secret-hard-negatives').filter((c) => c.label === 'attack')) {
    const v = inspect({ content: c.text, kind: 'tool_call' });
    t.ok(v.secrets.some((s) => !s.pii), `credential found: ${c.text.slice(0, 50)}`);
  }
});
