import Anthropic from '@anthropic-ai/sdk';
import t from 'tap';
import { fakeUpstream } from '../../helpers/fake-upstream.js';
import { anthropicMessage, sendAnthropicError, sendAnthropicJson, textBlock } from '../../helpers/fake-anthropic.js';
import { startTestGateway } from '../../helpers/gateway.js';
import { call } from '../../helpers/http.js';

const MODEL = 'claude-sonnet-4-6';
type ApiError = InstanceType<typeof Anthropic.APIError> & { error: { type: string; error: { type: string; message: string; code?: string } } };
const fail = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e as ApiError);

t.test('upstream errors reach the SDK as Anthropic sent them; Bastion\'s own are Anthropic-shaped', async (t) => {
  const upstream = await fakeUpstream(t);
  const gw = await startTestGateway(t, { config: { anthropicUpstreamBaseUrl: upstream.url, allowUnauthenticated: false, apiKeys: [{ tenant: 'boot', key: 'bootstrap-key-0123456789' }] } });
  const key = await gw.key('acme', { rate: 5000 });
  const client = new Anthropic({ apiKey: 'sk-ant-app-own-key', baseURL: gw.proxyUrl, defaultHeaders: { 'X-Bastion-Key': key }, maxRetries: 0 });
  const ask = () => client.messages.create({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });

  const cases: [number, string, abstract new (...args: never[]) => Error][] = [
    [400, 'invalid_request_error', Anthropic.BadRequestError],
    [429, 'rate_limit_error', Anthropic.RateLimitError],
    [500, 'api_error', Anthropic.InternalServerError],
    [529, 'overloaded_error', Anthropic.APIError],
  ];
  for (const [status, type, ErrorClass] of cases) {
    t.test(`upstream ${status} ${type}: the SDK raises its error with Anthropic's type and message`, async (t) => {
      upstream.on((_req, res) => sendAnthropicError(res, status, type, `upstream says ${type}`));
      const error = await fail(ask());
      t.ok(error instanceof ErrorClass, ErrorClass.name);
      t.equal(error?.status, status);
      t.equal(error?.error.error.type, type);
      t.equal(error?.error.error.message, `upstream says ${type}`);
    });
  }

  t.test('an unreachable upstream is a 502 api_error in Anthropic\'s envelope, never a verdict', async (t) => {
    const down = await startTestGateway(t, { config: { anthropicUpstreamBaseUrl: 'http://127.0.0.1:9', allowUnauthenticated: false, apiKeys: [{ tenant: 'boot', key: 'bootstrap-key-0123456789' }] } });
    const downKey = await down.key('acme');
    const c = new Anthropic({ apiKey: 'x', baseURL: down.proxyUrl, defaultHeaders: { 'X-Bastion-Key': downKey }, maxRetries: 0 });
    const error = await fail(c.messages.create({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }));
    t.equal(error?.status, 502);
    t.match(error?.error, { type: 'error', error: { type: 'api_error', code: 'BASTION_ERR_UPSTREAM_UNREACHABLE' } });
  });

  t.test('bad bodies are 4xx in Anthropic\'s envelope, never a 500', async (t) => {
    const bodies: [string, unknown][] = [
      ['no messages', { model: MODEL, max_tokens: 16 }],
      ['messages not an array', { model: MODEL, messages: 'hi' }],
      ['a block without a type', { model: MODEL, messages: [{ role: 'user', content: [{ text: 'hi' }] }] }],
      ['no model', { messages: [{ role: 'user', content: 'hi' }] }],
    ];
    for (const [name, body] of bodies) {
      const res = await call(`${gw.proxyUrl}/v1/messages`, { headers: { 'x-bastion-key': key }, body });
      t.equal(res.status, 400, name);
      t.match(res.json(), { type: 'error', error: { type: 'invalid_request_error', code: 'BASTION_ERR_VALIDATION' } }, name);
    }
    const broken = await call(`${gw.proxyUrl}/v1/messages/count_tokens`, { headers: { 'x-bastion-key': key }, raw: '{"model":' });
    t.equal(broken.status, 400);
    t.match(broken.json(), { type: 'error', error: { type: 'invalid_request_error' } });
    const error = await fail(client.messages.create({ model: MODEL, max_tokens: 16, messages: [] }));
    t.ok(error instanceof Anthropic.BadRequestError, 'the SDK raises BadRequestError, the class Anthropic\'s own 400 raises');
    t.equal((error as InstanceType<typeof Anthropic.APIError>).status, 400);
  });

  t.test('the OpenAPI document describes both routes with their key header and Anthropic-shaped errors', async (t) => {
    const doc = (await call(`${gw.proxyUrl}/openapi.json`)).json<{ paths: Record<string, { post?: { security: unknown; responses: Record<string, { content: Record<string, { schema: { title?: string } }> }> } }> }>();
    for (const path of ['/v1/messages', '/v1/messages/count_tokens']) {
      const post = doc.paths[path]?.post;
      t.ok(post, `${path} is documented`);
      t.same(post?.security, [{ bastionKey: [] }, { apiKey: [] }]);
      t.equal(post?.responses['4XX'].content['application/json'].schema.title, 'AnthropicError');
    }
  });

  t.test('no Bastion key or a wrong one: 401 authentication_error the SDK raises as AuthenticationError', async (t) => {
    const none = new Anthropic({ apiKey: 'sk-ant-app-own-key', baseURL: gw.proxyUrl, maxRetries: 0 });
    const missing = await fail(none.messages.create({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }));
    t.ok(missing instanceof Anthropic.AuthenticationError);
    t.match(missing?.error.error.message, /X-Bastion-Key/);
    const wrong = new Anthropic({ apiKey: 'x', baseURL: gw.proxyUrl, defaultHeaders: { 'X-Bastion-Key': 'bst_wrong' }, maxRetries: 0 });
    t.ok((await fail(wrong.messages.countTokens({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }))) instanceof Anthropic.AuthenticationError);
  });
});

t.test('when Bastion holds the Anthropic key, the app sends its Bastion key as the SDK\'s apiKey', async (t) => {
  const upstream = await fakeUpstream(t);
  const gw = await startTestGateway(t, { config: { anthropicUpstreamBaseUrl: upstream.url, anthropicUpstreamApiKey: 'sk-ant-gateway-held', allowUnauthenticated: false, apiKeys: [{ tenant: 'boot', key: 'bootstrap-key-0123456789' }] } });
  const key = await gw.key('acme', { rate: 5000 });
  upstream.on((_req, res) => sendAnthropicJson(res, anthropicMessage([textBlock('Hello.')])));

  t.test('apiKey (sent as Authorization: Bearer by the current SDK) authenticates; Bastion sends its own key upstream', async (t) => {
    const client = new Anthropic({ apiKey: key, baseURL: gw.proxyUrl, maxRetries: 0 });
    const answer = await client.messages.create({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
    t.equal(answer.content[0].type === 'text' && answer.content[0].text, 'Hello.');
    const sent = upstream.received.at(-1)!.headers;
    t.equal(sent['x-api-key'], 'sk-ant-gateway-held');
    t.notOk(sent.authorization, 'the Bastion key is not forwarded');
  });

  t.test('x-api-key (older SDKs, Claude Code) authenticates too; a wrong key is 401', async (t) => {
    const ok = await call(`${gw.proxyUrl}/v1/messages`, { headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01' }, body: { model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] } });
    t.equal(ok.status, 200);
    t.equal(upstream.received.at(-1)!.headers['x-api-key'], 'sk-ant-gateway-held');
    t.equal(upstream.received.at(-1)!.headers['anthropic-version'], '2023-06-01');
    const wrong = await call(`${gw.proxyUrl}/v1/messages`, { headers: { 'x-api-key': 'sk-ant-not-a-bastion-key' }, body: { model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] } });
    t.equal(wrong.status, 401);
    t.match(wrong.json(), { type: 'error', error: { type: 'authentication_error' } });
  });
});
