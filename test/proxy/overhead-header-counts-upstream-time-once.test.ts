import t from 'tap';
import { completion, fakeUpstream, sendJson } from '../helpers/fake-upstream.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';

// x-bastion-overhead-ms is the request's time minus the upstream's. Counting the upstream twice made it negative
// whenever the upstream was slow, which is exactly when an operator reads it.
t.test("x-bastion-overhead-ms subtracts the upstream's time once: never negative behind a slow upstream", async (t) => {
  const upstream = await fakeUpstream(t);
  upstream.on(async (_req, res) => {
    await new Promise((r) => setTimeout(r, 300));
    sendJson(res, 200, completion({ content: 'Paris.' }));
  });
  const gw = await startTestGateway(t, { config: { upstreamBaseUrl: upstream.url } });
  const key = await gw.key('acme', { rate: 1000 });
  const res = await call(`${gw.proxyUrl}/v1/chat/completions`, { headers: { 'x-api-key': key }, body: { model: 'm', messages: [{ role: 'user', content: 'Capital of France?' }] } });
  t.equal(res.status, 200);
  const overhead = Number(res.headers['x-bastion-overhead-ms']);
  t.ok(Number.isFinite(overhead) && overhead >= 0, `overhead ${overhead} ms is not negative`);
});
