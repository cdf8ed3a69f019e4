import OpenAI from 'openai';
import t from 'tap';
import { completion, fakeUpstream, sendJson } from '../helpers/fake-upstream.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';

interface OpenAiError {
  error: { message: string; type: string; param: string | null; code: string };
}

t.test('on /v1/* the SDK shows the reason of every Bastion error; Bastion routes keep the catalogue shape', async (t) => {
  const upstream = await fakeUpstream(t);
  upstream.on((_req, res) => sendJson(res, 200, completion({ content: 'ok' })));
  const gw = await startTestGateway(t, { config: { upstreamBaseUrl: upstream.url, allowUnauthenticated: false, apiKeys: [{ tenant: 'boot', key: 'boot-key-0123456789abcdef' }] } });
  const key = await gw.key('acme', { rate: 1000 });
  const client = new OpenAI({ apiKey: 'sk-app', baseURL: `${gw.proxyUrl}/v1`, defaultHeaders: { 'X-API-Key': key }, maxRetries: 0 });

  t.test('a 422 reaches the SDK with its message, code and param', async (t) => {
    const err = await client.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], functions: [{ name: 'f', parameters: { type: 'object' } }] } as never)
      .catch((e: unknown) => e);
    t.ok(err instanceof OpenAI.UnprocessableEntityError, 'the SDK raises its 422 class');
    const e = err as InstanceType<typeof OpenAI.UnprocessableEntityError>;
    t.match(e.message, /use tools/, 'the reason is shown, not "(no body)"');
    t.equal(e.code, 'BASTION_ERR_VALIDATION');
    t.equal(e.param, 'functions');
    t.equal(e.type, 'invalid_request_error');
  });

  t.test('a schema violation names the parameter in OpenAI spelling', async (t) => {
    const res = await call(`${gw.proxyUrl}/v1/chat/completions`, { headers: { 'x-api-key': key }, body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }, { content: 'no role' }] } });
    t.equal(res.status, 422);
    const body = res.json<OpenAiError>();
    t.equal(body.error.param, 'messages[1].role');
    t.equal(body.error.code, 'BASTION_ERR_VALIDATION');
    t.match(body.error.message, /^messages\[1\]\.role: Field required/);
  });

  t.test('a 401 names X-API-Key when the app keeps its provider key', async (t) => {
    const anonymous = new OpenAI({ apiKey: 'sk-app', baseURL: `${gw.proxyUrl}/v1`, maxRetries: 0 });
    const err = (await anonymous.models.list().catch((e: unknown) => e)) as InstanceType<typeof OpenAI.AuthenticationError>;
    t.ok(err instanceof OpenAI.AuthenticationError);
    t.match(err.message, /X-API-Key header/);
    t.equal(err.code, 'BASTION_ERR_UNAUTHENTICATED');
    t.equal(err.type, 'authentication_error');
  });

  t.test('an unknown path under /v1/ is an OpenAI-shaped 404', async (t) => {
    const res = await call(`${gw.proxyUrl}/v1/assistants`, { headers: { 'x-api-key': key } });
    t.equal(res.status, 404);
    const body = res.json<OpenAiError>();
    t.equal(body.error.code, 'BASTION_ERR_NOT_FOUND');
    t.equal(body.error.param, null);
    t.match(body.error.message, /^Invalid URL \(GET \/v1\/assistants\)/);
  });

  t.test('an inspection limit (413) on /v1/responses is in the envelope too', async (t) => {
    const res = await call(`${gw.proxyUrl}/v1/responses`, { headers: { 'x-api-key': key }, body: { model: 'm', input: 'x'.repeat(300_000) } });
    t.equal(res.status, 413);
    const body = res.json<OpenAiError>();
    t.equal(body.error.code, 'BASTION_ERR_CONTENT_TOO_LARGE');
    t.equal(body.error.type, 'invalid_request_error');
  });

  t.test("Bastion's own routes keep the catalogue shape and SPEC's validation object", async (t) => {
    const invalid = await call(`${gw.proxyUrl}/filter`, { headers: { 'x-api-key': key }, body: {} });
    t.equal(invalid.status, 422);
    t.ok(Array.isArray(invalid.json<{ detail: unknown[] }>().detail));
    const unauth = await call(`${gw.proxyUrl}/filter`, { body: { content: 'hi' } });
    t.equal(unauth.status, 401);
    t.same(Object.keys(unauth.json<{ error: object }>().error).sort(), ['code', 'message']);
    t.match(unauth.json<OpenAiError>().error.message, /X-API-Key/);
    const missing = await call(`${gw.proxyUrl}/nope`);
    t.same(Object.keys(missing.json<{ error: object }>().error).sort(), ['code', 'message']);
  });
});

t.test('with UPSTREAM_API_KEY the 401 on /v1/* tells the app to send its Bastion key as the Bearer apiKey', async (t) => {
  const gw = await startTestGateway(t, { config: { upstreamApiKey: 'sk-held-by-bastion', allowUnauthenticated: false, apiKeys: [{ tenant: 'boot', key: 'boot-key-0123456789abcdef' }] } });
  const client = new OpenAI({ apiKey: 'wrong-bastion-key', baseURL: `${gw.proxyUrl}/v1`, maxRetries: 0 });
  const err = (await client.responses.create({ model: 'm', input: 'hi' }).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.AuthenticationError>;
  t.ok(err instanceof OpenAI.AuthenticationError);
  t.match(err.message, /Authorization: Bearer/);
});
