import OpenAI from 'openai';
import t from 'tap';
import { loadConfig } from '../../src/config/load.js';
import { completion, fakeUpstream, sendJson } from '../helpers/fake-upstream.js';
import { startTestGateway } from '../helpers/gateway.js';

// Most SDKs and provider docs write the base URL with /v1: a user who copies that must not get /v1/v1/… upstream.
t.test('UPSTREAM_BASE_URL with a trailing /v1 is read as the host base', async (t) => {
  for (const raw of ['https://api.example.com/v1', 'https://api.example.com/v1/', 'https://api.example.com/V1//', 'https://api.example.com']) {
    t.equal(loadConfig({ UPSTREAM_BASE_URL: raw }).upstreamBaseUrl, 'https://api.example.com', raw);
  }
  t.equal(loadConfig({ UPSTREAM_BASE_URL: 'https://gw.example.com/openai/v1' }).upstreamBaseUrl, 'https://gw.example.com/openai', 'a path prefix before /v1 is kept');
  t.equal(loadConfig({ UPSTREAM_BASE_URL: 'https://gw.example.com/v1beta' }).upstreamBaseUrl, 'https://gw.example.com/v1beta', 'only a whole /v1 segment is removed');
  t.equal(loadConfig({ EVOLUTION_LLM_BASE_URL: 'http://127.0.0.1:11434/v1' }).evolutionLlmBaseUrl, 'http://127.0.0.1:11434', 'the analyser endpoint follows the same rule');
});

t.test('the upstream receives /v1/chat/completions exactly once when configured with /v1', async (t) => {
  const upstream = await fakeUpstream(t);
  upstream.on((_req, res) => sendJson(res, 200, completion({ content: 'Paris.' })));
  const gw = await startTestGateway(t, { env: { UPSTREAM_BASE_URL: `${upstream.url}/v1/` } });
  const key = await gw.key('acme', { rate: 1000 });
  const client = new OpenAI({ apiKey: 'sk-app', baseURL: `${gw.proxyUrl}/v1`, defaultHeaders: { 'X-API-Key': key }, maxRetries: 0 });
  const answer = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Capital of France?' }] });
  t.equal(answer.choices[0].message.content, 'Paris.');
  t.same(upstream.received.map((r) => r.path), ['/v1/chat/completions']);
});
