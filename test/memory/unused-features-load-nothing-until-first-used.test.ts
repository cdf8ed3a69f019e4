import { createRequire } from 'node:module';
import t from 'tap';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';

// CommonJS packages land in require's cache when anything in the process loads them, from ESM as well.
const loaded = (pkg: string) => Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes(`/node_modules/${pkg}/`));

t.test('the site renderer and the paid MCP tools load with the first request that needs them, and answer it', async (t) => {
  const gw = await startTestGateway(t);
  const key = await gw.key();
  // /filter and the chat routes never need them.
  const filtered = await call(`${gw.proxyUrl}/filter`, { headers: { 'x-api-key': key }, body: { content: 'Please summarise the quarterly report.', kind: 'prompt' } });
  t.equal(filtered.status, 200);
  for (const pkg of ['sanitize-html', 'qrcode', 'macaroon']) t.equal(loaded(pkg), false, `${pkg} is not loaded by a gateway that only filters`);

  const page = await call(`${gw.adminUrl}/pricing`, { headers: { accept: 'text/html' } });
  t.equal(page.status, 200, 'the first site page is served');
  t.match(page.body, /<!doctype html>/);
  t.equal(loaded('sanitize-html'), true, 'it loaded the renderer');

  const answer = await call(`${gw.proxyUrl}/mcp`, {
    headers: { accept: 'application/json, text/event-stream', 'x-api-key': key },
    body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
  });
  t.equal(answer.status, 200, 'the first MCP request is answered');
  t.match(answer.json(), { result: { tools: [{ name: 'filter' }, { name: 'redact' }, { name: 'assess' }] } });
  t.equal(loaded('macaroon'), true, 'it loaded the payment admission');
  t.equal(loaded('qrcode'), false, 'qrcode still waits for a two-step setup');
});
