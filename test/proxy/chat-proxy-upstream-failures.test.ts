import t from 'tap';
import { request } from 'undici';
import { fakeUpstream, chunk, completion, sendJson } from '../helpers/fake-upstream.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';

const messages = [{ role: 'user', content: 'hello' }];

t.test('upstream failures are errors in the catalogue shape, never verdicts', async (t) => {
  const upstream = await fakeUpstream(t);
  const gw = await startTestGateway(t, { config: { upstreamBaseUrl: upstream.url, upstreamHeadersTimeoutMs: 300 } });
  const key = await gw.key('acme', { rate: 1000 });
  const chat = (body: Record<string, unknown> = {}) => call(`${gw.proxyUrl}/v1/chat/completions`, { headers: { 'x-api-key': key }, body: { model: 'm', messages, ...body } });

  t.test('an upstream 4xx/5xx passes through verbatim', async (t) => {
    const error = { error: { message: 'The server had an error', type: 'server_error', code: null } };
    upstream.on((_req, res) => sendJson(res, 500, error));
    const res = await chat();
    t.equal(res.status, 500);
    t.same(res.json(), error);
    t.equal(res.headers['x-request-id'], (res.headers['x-request-id'] ?? '').startsWith('req_') ? res.headers['x-request-id'] : 'x', 'Bastion stamps its own request id');
    upstream.on((_req, res) => sendJson(res, 429, { error: { message: 'Rate limit reached', type: 'requests' } }));
    t.equal((await chat()).status, 429);
  });

  t.test('an upstream that never answers → 504 UPSTREAM_TIMEOUT', async (t) => {
    upstream.on(() => {});
    const res = await chat();
    t.equal(res.status, 504);
    t.equal(res.json<{ error: { code: string } }>().error.code, 'BASTION_ERR_UPSTREAM_TIMEOUT');
  });

  t.test('a connection reset → 502 UPSTREAM_UNREACHABLE', async (t) => {
    upstream.on((_req, res) => {
      res.socket!.destroy();
    });
    const res = await chat();
    t.equal(res.status, 502);
    t.equal(res.json<{ error: { code: string } }>().error.code, 'BASTION_ERR_UPSTREAM_UNREACHABLE');
  });

  t.test('a client that disconnects mid-stream aborts the upstream request', async (t) => {
    const abortedBefore = upstream.aborted;
    upstream.on(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let i = 0; i < 200 && !res.destroyed; i++) {
        res.write(`data: ${JSON.stringify(chunk({ content: `word${i} ` }))}\n\n`);
        await new Promise((r) => setTimeout(r, 20));
      }
      res.end();
    });
    const controller = new AbortController();
    const res = await request(`${gw.proxyUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', stream: true, messages }),
      signal: controller.signal,
    });
    for await (const _ of res.body) {
      controller.abort();
      break;
    }
    for (let i = 0; i < 50 && upstream.aborted === abortedBefore; i++) await new Promise((r) => setTimeout(r, 20));
    t.equal(upstream.aborted, abortedBefore + 1, 'the upstream saw its request closed early');
  });
});

t.test('a client that leaves before the upstream answers aborts the upstream request too', async (t) => {
  // No short header timeout here: only the client's leaving can end this exchange early.
  const upstream = await fakeUpstream(t);
  const gw = await startTestGateway(t, { config: { upstreamBaseUrl: upstream.url, upstreamHeadersTimeoutMs: 60_000 } });
  const key = await gw.key('acme', { rate: 1000 });
  const abortedBefore = upstream.aborted;
  let arrived!: () => void;
  const atUpstream = new Promise<void>((r) => (arrived = r));
  upstream.on(() => arrived()); // never answers
  const controller = new AbortController();
  const pending = request(`${gw.proxyUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'm', messages }),
    signal: controller.signal,
  }).catch(() => undefined);
  await atUpstream;
  controller.abort();
  await pending;
  for (let i = 0; i < 250 && upstream.aborted === abortedBefore; i++) await new Promise((r) => setTimeout(r, 20));
  t.equal(upstream.aborted, abortedBefore + 1, 'the upstream saw its request closed before it answered');
});

t.test('with UPSTREAM_API_KEY, the app may send its Bastion key as Authorization: Bearer', async (t) => {
  const upstream = await fakeUpstream(t);
  const gw = await startTestGateway(t, { config: { upstreamBaseUrl: upstream.url, upstreamApiKey: 'sk-held-by-bastion' } });
  const key = await gw.key('acme', { rate: 1000 });
  upstream.on((_req, res) => sendJson(res, 200, completion({ content: 'hi' })));
  const res = await call(`${gw.proxyUrl}/v1/chat/completions`, { headers: { authorization: `Bearer ${key}` }, body: { model: 'm', messages } });
  t.equal(res.status, 200);
  t.equal(upstream.received.at(-1)!.headers.authorization, 'Bearer sk-held-by-bastion', 'Bastion substitutes the upstream credential');
  const wrong = await call(`${gw.proxyUrl}/v1/chat/completions`, { headers: { authorization: 'Bearer sk-not-a-bastion-key' }, body: { model: 'm', messages } });
  t.equal(wrong.status, 401);
});

t.test('a shadow-banned tenant gets a plausible decoy and is never forwarded', async (t) => {
  const upstream = await fakeUpstream(t);
  const gw = await startTestGateway(t, { config: { upstreamBaseUrl: upstream.url } });
  const key = await gw.key('mallory', { rate: 1000 });
  await gw.services.ers.record('mallory', Array(10).fill('BLOCK'));
  const res = await call(`${gw.proxyUrl}/v1/chat/completions`, { headers: { 'x-api-key': key }, body: { model: 'm', messages } });
  t.equal(res.status, 200);
  const body = res.json<{ choices: { finish_reason: string; message: { content: string } }[]; bastion?: unknown }>();
  t.equal(body.choices[0].finish_reason, 'stop', 'looks like an ordinary answer');
  t.notOk(body.bastion, 'no verdict object tells the entity it is banned');
  t.equal(upstream.received.length, 0);
  const filter = await call(`${gw.proxyUrl}/filter`, { headers: { 'x-api-key': key }, body: { content: 'hello' } });
  t.match(filter.json(), { allowed: false, ers: { shadow_banned: true } }, '/filter says so to the operator-facing API');
});
