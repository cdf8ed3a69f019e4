import { createServer } from 'node:http';
import t from 'tap';
import { collectWhenIdle, exposeGc } from '../../src/memory/idle-collect.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

t.test('one full collection after traffic stops; none while traffic flows, none when nothing was served', async (t) => {
  const server = createServer((_req, res) => res.end('ok'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => server.close());
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
  let collections = 0;
  const collector = collectWhenIdle([server], 150, () => collections++, 20);
  t.teardown(() => collector.stop());

  await sleep(400);
  t.equal(collections, 0, 'a process that served nothing has nothing to give back');

  // Steady traffic: a request every 50 ms for 600 ms, never 150 ms of quiet.
  for (let i = 0; i < 12; i++) {
    await call(url);
    await sleep(50);
  }
  t.equal(collections, 0, 'no collection while requests keep coming');

  await sleep(500);
  t.equal(collections, 1, 'one collection once the listener has been quiet for the idle period');
  await sleep(400);
  t.equal(collections, 1, 'and not again while it stays idle');

  await call(url);
  await sleep(500);
  t.equal(collections, 2, 'the next burst earns the next collection');
});

t.test('the collector it uses is V8 itself, and the gateway wires it to both listeners', async (t) => {
  t.equal(typeof exposeGc(), 'function');
  t.doesNotThrow(() => exposeGc()(), 'a full collection runs');
  const gw = await startTestGateway(t, { config: { idleGcMs: 200 } });
  const key = await gw.key('acme', { rate: 100 });
  t.equal((await call(`${gw.proxyUrl}/filter`, { headers: { 'x-api-key': key }, body: { content: 'hello' } })).status, 200);
  t.notMatch(gw.logs.text, /"event":"idle_gc"/, 'not while serving');
  await sleep(800);
  t.match(gw.logs.text, /"event":"idle_gc","heapMbBefore":\d+,"heapMbAfter":\d+/, 'collected once idle, and says how much heap is left');
});
