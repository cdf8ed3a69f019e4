import { request as httpRequest, type ClientRequest } from 'node:http';
import t from 'tap';
import { createInspectorPool } from '../../src/workers/pool.js';
import { call } from '../helpers/http.js';
import { startTestGateway } from '../helpers/gateway.js';

const turn = () => new Promise((r) => setImmediate(r));

t.test('after a flood whose clients disconnected, no queued inspection runs and the next request is served', async (t) => {
  const gw = await startTestGateway(t, { config: { inspectQueueLimit: 4, inspectTimeoutMs: 30_000 } });
  // The same pool, with a worker that keeps its thread busy 200 ms per task so a queue can build up.
  const real = gw.services.inspector;
  gw.services.inspector = createInspectorPool({ threads: 1, maxQueue: 4, timeoutMs: 30_000, workerUrl: new URL('../workers/fixtures/steady-worker.mjs', import.meta.url) });
  await real.close();
  await gw.services.inspector.warmUp();
  const pool = gw.services.inspector;

  const clients: ClientRequest[] = [];
  for (let i = 0; i < 5; i++) {
    const req = httpRequest({ host: '127.0.0.1', port: gw.ports.proxy, method: 'POST', path: '/filter', agent: false, headers: { 'content-type': 'application/json' } });
    req.on('error', () => {});
    req.end(JSON.stringify({ content: `flood request number ${i}` }));
    clients.push(req);
    // Each request reaches the pool before the next is sent: one task each.
    while (pool.counts().started + pool.counts().queued < i + 1) await turn();
  }
  t.same({ started: pool.counts().started, queued: pool.counts().queued }, { started: 1, queued: 4 }, 'one inspection runs, four wait');

  for (const c of clients) c.destroy();
  while (pool.counts().queued > 0) await turn();
  const left = performance.now();
  const probe = await call(`${gw.proxyUrl}/filter`, { body: { content: 'What is the capital of France?' } });
  t.equal(probe.status, 200, 'the next request is served, not 503');
  // Reported, not asserted: the probe waits at most for the one task that was already running (200 ms here).
  t.comment(`recovery: probe answered ${Math.round(performance.now() - left)} ms after the clients left`);
  t.equal(pool.counts().cancelled, 4, 'the four queued inspections of departed clients were dropped');
  t.equal(pool.counts().started, 2, 'only the inspection already running and the probe ran');
});
