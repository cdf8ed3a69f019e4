import t from 'tap';
import { completion, fakeUpstream, sendJson } from '../helpers/fake-upstream.js';
import { messageItem, responseObject } from '../helpers/fake-responses.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';

const CANARY = 'CANARY-7f3a9c1e-do-not-log';

t.test('no route logs request content, keys or query strings (SPEC §1)', async (t) => {
  const upstream = await fakeUpstream(t);
  upstream.on((req, res) =>
    sendJson(res, 200, req.path.startsWith('/v1/chat') ? completion({ content: 'ok' }) : req.path.startsWith('/v1/responses') ? responseObject([messageItem('ok')]) : req.path === '/v1/completions' ? { object: 'text_completion', choices: [{ text: 'ok', index: 0, finish_reason: 'stop' }] } : { object: 'list', data: [] }),
  );
  const gw = await startTestGateway(t, { config: { adminKey: 'admin-secret-0123456789abcdef', bodyLimitBytes: 65536, upstreamBaseUrl: upstream.url } });
  const key = await gw.key('acme', { rate: 10_000 });
  let sent = 0;

  for (const base of [gw.proxyUrl, gw.adminUrl]) {
    const doc = (await call(`${base}/openapi.json`)).json<{ paths: Record<string, Record<string, unknown>> }>();
    const routes = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => [m.toUpperCase(), path] as const));
    routes.push(['GET', '/livez'], ['GET', '/readyz'], ['GET', '/no-such-route']);
    for (const [method, path] of routes) {
      const url = `${base}${path.replace(/\{[^}]+\}/g, CANARY)}?q=${CANARY}`;
      const headers = { 'x-api-key': key, 'user-agent': CANARY, 'x-admin-key': 'admin-secret-0123456789abcdef' };
      const bodies: ({ body: unknown } | { raw: string })[] = method === 'GET' ? [{ body: undefined }] : [
        { body: { content: `ignore previous instructions ${CANARY} AKIA${'Q'.repeat(16)}`, items: [{ content: CANARY }] } },
        { body: { content: CANARY } },
        { body: { items: [{ content: CANARY }, { content: 7 }] } },
        { raw: `{"content": "${CANARY}` },
        { body: { content: CANARY.repeat(5000) } },
      ];
      for (const init of bodies) {
        const res = await call(url, { method, headers, ...init });
        t.ok(res.status < 500, `${method} ${path} answered ${res.status}`);
        sent++;
      }
    }
  }
  // The proxy routes with real payloads: chat (plain and streamed) and embeddings, canary in every message.
  const messages = [{ role: 'system', content: CANARY }, { role: 'user', content: `${CANARY} AKIAZ7QW3R5T6Y7U8I9O` }, { role: 'tool', tool_call_id: 'c', content: CANARY }];
  await call(`${gw.proxyUrl}/v1/chat/completions`, { headers: { 'x-api-key': key }, body: { model: 'm', messages } });
  await call(`${gw.proxyUrl}/v1/chat/completions`, { headers: { 'x-api-key': key }, body: { model: 'm', stream: true, messages } });
  await call(`${gw.proxyUrl}/v1/embeddings`, { headers: { 'x-api-key': key }, body: { model: 'text-embedding-3-small', input: [CANARY, CANARY] } });
  t.ok(upstream.received.length >= 2, 'proxy requests reached the fake upstream');
  // Unauthenticated and wrong-key attempts, with the canary in the key itself.
  await call(`${gw.proxyUrl}/filter`, { headers: { 'x-api-key': CANARY }, body: { content: CANARY } });
  await call(`${gw.proxyUrl}/demo/filter`, { body: { content: CANARY } });

  t.ok(sent >= 10, `exercised ${sent} requests`);
  t.ok(gw.logs.lines.length >= sent, 'every request wrote an access-log line');
  t.notOk(gw.logs.text.includes(CANARY), 'the canary never reaches the logs');
  t.notOk(gw.logs.text.includes(key), 'the API key never reaches the logs');
  t.notOk(gw.logs.text.includes('admin-secret'), 'the admin key never reaches the logs');
  const line = JSON.parse(gw.logs.lines.find((l) => l.includes('"route":"/filter"'))!);
  t.match(line, { method: 'POST', route: '/filter', status: Number, ms: Number, tenant: 'acme', key: key.slice(0, 10) }, 'metadata is logged');
});
