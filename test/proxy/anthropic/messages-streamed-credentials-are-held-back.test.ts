import Anthropic from '@anthropic-ai/sdk';
import t from 'tap';
import { fakeUpstream } from '../../helpers/fake-upstream.js';
import { anthropicMessage, messageEvents, parseAnthropicEvents, sendAnthropicEvents, sendAnthropicJson, textBlock } from '../../helpers/fake-anthropic.js';
import { startTestGateway } from '../../helpers/gateway.js';
import { call } from '../../helpers/http.js';
import { credentialSamples } from '../fixtures/credential-samples.js';

const MODEL = 'claude-sonnet-4-6';

/** Longest prefix of `secret` found anywhere in `text`. */
function longestPrefix(text: string, secret: string): number {
  for (let n = secret.length; n > 0; n--) if (text.includes(secret.slice(0, n))) return n;
  return 0;
}

t.test('credentials in Anthropic text deltas are held back and redacted, never released even partly', async (t) => {
  const upstream = await fakeUpstream(t);
  const gw = await startTestGateway(t, { config: { anthropicUpstreamBaseUrl: upstream.url } });
  const key = await gw.key('acme', { rate: 5000, plan: 'professional' });
  const client = new Anthropic({ apiKey: 'sk-ant-app-own-key', baseURL: gw.proxyUrl, defaultHeaders: { 'X-Bastion-Key': key }, maxRetries: 0 });
  const samples = credentialSamples().filter((s) => ['aws_access_key', 'github_token', 'slack_token', 'stripe_secret_key'].includes(s.type));
  t.ok(samples.length >= 3, 'samples of several credential types');

  for (const sample of samples) {
    t.test(`${sample.type} streamed one character per delta: the SDK's text never holds a piece of it`, async (t) => {
      const text = `${sample.before}${sample.secret}${sample.after} and that is all you need.`;
      upstream.on((_req, res) => sendAnthropicEvents(res, messageEvents(anthropicMessage([textBlock(text)]), 1)));
      const stream = client.messages.stream({ model: MODEL, max_tokens: 256, messages: [{ role: 'user', content: 'the key?' }] });
      let streamed = '';
      stream.on('text', (delta) => (streamed += delta));
      const final = await stream.finalMessage();
      t.ok(longestPrefix(streamed, sample.secret) < 4, `at most 3 characters of the credential (${longestPrefix(streamed, sample.secret)})`);
      t.match(streamed, /\[REDACTED:[a-z_]+\]/);
      t.match(streamed, / and that is all you need\.$/, 'the text around it flows on');
      t.equal(final.stop_reason, 'end_turn');
    });
  }

  t.test('the message_delta carries the verdict; the frames are the API\'s own', async (t) => {
    const secret = samples[0].secret;
    upstream.on((_req, res) => sendAnthropicEvents(res, messageEvents(anthropicMessage([textBlock(`key ${secret} done`)]), 1)));
    const res = await call(`${gw.proxyUrl}/v1/messages`, { headers: { 'x-bastion-key': key }, body: { model: MODEL, max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'key?' }] } });
    const events = parseAnthropicEvents(res.body);
    const delta = events.find((e) => e.type === 'message_delta')!;
    t.match(delta.bastion, { action: 'redact', stage: 'output' });
    t.equal(events.at(-1)!.type, 'message_stop');
    t.notOk(res.body.includes(secret.slice(0, 6)));
  });

  t.test('non-streamed: the credential is redacted in place, the verdict in body and header', async (t) => {
    const secret = samples[1].secret;
    upstream.on((_req, res) => sendAnthropicJson(res, anthropicMessage([textBlock(`Use ${secret} to log in.`)])));
    const { data, response } = await client.messages.create({ model: MODEL, max_tokens: 64, messages: [{ role: 'user', content: 'token?' }] }).withResponse();
    const block = data.content[0];
    t.match(block.type === 'text' && block.text, /^Use \[REDACTED:[a-z_]+\] to log in\.$/);
    t.equal(response.headers.get('x-bastion-verdict'), 'redact; stage=output');
  });
});
