/**
 * Token log-probabilities repeat the answer's text token by token. A credential the output guard redacts must not
 * survive in them (non-streamed), and a stream cannot offer them at all: they would travel with text the guard still
 * holds back.
 */
import t from 'tap';
import { completion, fakeUpstream, sendJson } from '../helpers/fake-upstream.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { credentialSamples } from './fixtures/credential-samples.js';

t.test('logprobs and credentials in answers', async (t) => {
  const upstream = await fakeUpstream(t);
  const gw = await startTestGateway(t, { config: { upstreamBaseUrl: upstream.url } });
  const key = await gw.key('logprobs', { rate: 1000 });
  const ask = (body: Record<string, unknown>) =>
    call(`${gw.proxyUrl}/v1/chat/completions`, { headers: { 'x-api-key': key }, body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'How do I deploy?' }], ...body } });

  const secret = credentialSamples().find((s) => s.type === 'github_token')!.secret;
  const answer = `Use ${secret} to push.`;
  const tokens = answer.match(/.{1,4}/g)!.map((token) => ({ token, logprob: -0.1, bytes: [...Buffer.from(token)], top_logprobs: [] }));
  upstream.on((_req, res) => {
    const body = completion({ content: answer });
    (body.choices as Record<string, unknown>[])[0].logprobs = { content: tokens, refusal: null };
    sendJson(res, 200, body);
  });

  t.test('a redacted answer loses its logprobs, which spelled the credential out', async (t) => {
    const res = await ask({ logprobs: true });
    t.equal(res.status, 200);
    const choice = res.json<{ choices: { message: { content: string }; logprobs: unknown }[] }>().choices[0];
    t.notOk(choice.message.content.includes(secret), 'the text is redacted');
    t.equal(choice.logprobs, null, 'the logprobs are gone with it');
    t.notOk(res.body.includes(secret.slice(4, 12)), 'no piece of the credential is anywhere in the answer');
  });

  t.test('an answer without a leak keeps its logprobs', async (t) => {
    upstream.on((_req, res) => {
      const body = completion({ content: 'Run make release.' });
      (body.choices as Record<string, unknown>[])[0].logprobs = { content: [{ token: 'Run', logprob: -0.2, bytes: [82, 117, 110], top_logprobs: [] }], refusal: null };
      sendJson(res, 200, body);
    });
    const res = await ask({ logprobs: true });
    t.same(res.json<{ choices: { logprobs: { content: { token: string }[] } }[] }>().choices[0].logprobs.content.map((c) => c.token), ['Run']);
  });

  t.test('a stream with logprobs is refused before anything is sent upstream', async (t) => {
    let forwarded = 0;
    upstream.on((_req, res) => {
      forwarded++;
      sendJson(res, 200, completion({ content: 'never' }));
    });
    for (const body of [{ stream: true, logprobs: true }, { stream: true, top_logprobs: 2 }]) {
      const res = await ask(body);
      t.equal(res.status, 422, `${JSON.stringify(body)}: 422`);
      t.match(res.body, /logprobs cannot be inspected in a stream/);
    }
    t.equal(forwarded, 0, 'nothing reached the upstream');
  });
});
