import t from 'tap';
import { fakeUpstream } from '../helpers/fake-upstream.js';
import { messageItem, parseEvents, responseEvents, responseObject, sendEvents } from '../helpers/fake-responses.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';

t.test('a Responses stream still open when the shutdown grace period ends gets the API error event, then closes', async (t) => {
  const upstream = await fakeUpstream(t);
  // 60 text deltas 100 ms apart: far longer than the 300 ms grace period.
  const text = Array.from({ length: 60 }, (_, i) => `${i} `).join('');
  upstream.on((_req, res) => sendEvents(res, responseEvents(responseObject([messageItem(text)]), 60), 100));
  const gw = await startTestGateway(t, { config: { upstreamBaseUrl: upstream.url, shutdownGraceMs: 300 } });
  const key = await gw.key('acme', { rate: 100 });

  const open = call(`${gw.proxyUrl}/v1/responses`, { headers: { 'x-api-key': key }, body: { model: 'gpt-4.1-mini', stream: true, input: 'Count slowly to sixty.' } });
  while (upstream.received.length === 0) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, 250));
  const closing = gw.close();
  const res = await open;
  await closing;
  const events = parseEvents(res.body);
  const last = events.at(-1)!;
  t.equal(last.type, 'error', 'the stream ends with the Responses API error event');
  t.equal(last.code, 'BASTION_ERR_SHUTTING_DOWN');
  t.ok(res.body.includes('event: error\n'), 'named as the API names it');
  t.notOk(events.some((e) => e.type === 'response.completed'), 'ended by the grace period, not by the upstream');
  t.ok(events.some((e) => e.type === 'response.output_text.delta'), 'text released before the end was delivered');
});
