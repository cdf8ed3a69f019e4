import t from 'tap';
import { fakeUpstream } from '../helpers/fake-upstream.js';
import { functionCallItem, messageItem, parseEvents, responseEvents, responseObject, sendEvents } from '../helpers/fake-responses.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';

t.test('an upstream that ends a Responses stream early: text so far is delivered, a half-written call never is', async (t) => {
  const upstream = await fakeUpstream(t);
  const full = responseEvents(responseObject([messageItem('Listing the files now.'), functionCallItem('call_1', 'shell', JSON.stringify({ command: 'ls -la /srv/www' }))]), 4);
  // Cut right after the second arguments delta: no arguments.done, no output_item.done, no response.completed.
  const cut = full.findIndex((e) => e.type === 'response.function_call_arguments.delta') + 2;
  upstream.on((_req, res) => sendEvents(res, full.slice(0, cut)));
  const gw = await startTestGateway(t, { config: { upstreamBaseUrl: upstream.url } });
  const key = await gw.key('acme', { rate: 100 });

  const res = await call(`${gw.proxyUrl}/v1/responses`, { headers: { 'x-api-key': key }, body: { model: 'gpt-4.1-mini', stream: true, input: 'list the files' } });
  const events = parseEvents(res.body);
  const text = events.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta).join('');
  t.equal(text, 'Listing the files now.');
  t.notOk(events.some((e) => String(e.type).startsWith('response.function_call_arguments')), 'no argument of the cut call');
  t.notOk(events.some((e) => (e.item as { type?: string } | undefined)?.type === 'function_call'), 'no function_call item');
  t.equal(events.at(-1)!.type, 'error');
  t.equal(events.at(-1)!.code, 'BASTION_ERR_STREAM_INTERRUPTED');
});
