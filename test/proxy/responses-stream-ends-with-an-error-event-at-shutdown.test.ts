import { request as httpRequest } from 'node:http';
import t from 'tap';
import { fakeUpstream } from '../helpers/fake-upstream.js';
import { messageItem, parseEvents, responseEvents, responseObject, sendEvents } from '../helpers/fake-responses.js';
import { startTestGateway } from '../helpers/gateway.js';

/** A streamed Response over its own socket: `started` once the first text delta arrived, `body` when the server ends it. */
function openStream(port: number, key: string): { started: Promise<void>; body: Promise<string> } {
  let started!: () => void;
  const startedP = new Promise<void>((resolve) => (started = resolve));
  const body = new Promise<string>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/v1/responses', agent: false, headers: { 'content-type': 'application/json', 'x-api-key': key } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => {
        text += d.toString();
        if (text.includes('response.output_text.delta')) started();
      });
      res.on('end', () => resolve(text));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(JSON.stringify({ model: 'gpt-4.1-mini', stream: true, input: 'Count slowly to sixty.' }));
  });
  return { started: startedP, body };
}

t.test('a Responses stream still open when the shutdown grace period ends gets the API error event, then closes', async (t) => {
  const upstream = await fakeUpstream(t);
  // 60 text deltas 100 ms apart: far longer than the 300 ms grace period.
  const text = Array.from({ length: 60 }, (_, i) => `${i} `).join('');
  upstream.on((_req, res) => sendEvents(res, responseEvents(responseObject([messageItem(text)]), 60), 100));
  const gw = await startTestGateway(t, { config: { upstreamBaseUrl: upstream.url, shutdownGraceMs: 300 } });
  const key = await gw.key('acme', { rate: 100 });

  const stream = openStream(gw.ports.proxy, key);
  await stream.started;
  await gw.close();
  const events = parseEvents(await stream.body);
  const last = events.at(-1)!;
  t.equal(last.type, 'error', 'the stream ends with the Responses API error event');
  t.equal(last.code, 'BASTION_ERR_SHUTTING_DOWN');
  t.notOk(events.some((e) => e.type === 'response.completed'), 'ended by the grace period, not by the upstream');
  t.ok(events.some((e) => e.type === 'response.output_text.delta'), 'text released before the end was delivered');
});
