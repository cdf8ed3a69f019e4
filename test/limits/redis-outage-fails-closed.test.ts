import { spawn } from 'node:child_process';
import t from 'tap';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { freePort } from '../helpers/wait.js';

t.test('when a configured Redis dies, metered requests get 503 + Retry-After, never an unmetered pass', async (t) => {
  const port = await freePort();
  const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  t.teardown(() => redis.kill('SIGKILL'));
  await new Promise((r) => setTimeout(r, 300));
  const gw = await startTestGateway(t, { config: { redisUrl: `redis://127.0.0.1:${port}`, redisPrefix: 'outage:' } });
  const key = await gw.key('acme', { rate: 100 });
  const filter = () => call(`${gw.proxyUrl}/filter`, { headers: { 'x-api-key': key }, body: { content: 'hello' } });

  t.equal((await filter()).status, 200, 'works while Redis is up');
  t.equal((await call(`${gw.proxyUrl}/readyz`)).status, 200);

  redis.kill('SIGKILL');
  await new Promise((r) => setTimeout(r, 300));

  const res = await filter();
  t.equal(res.status, 503);
  t.equal(res.json<{ error: { code: string } }>().error.code, 'BASTION_ERR_LIMITER_UNAVAILABLE');
  t.ok(Number(res.headers['retry-after']) > 0, 'Retry-After tells the client when to come back');
  const ready = await call(`${gw.proxyUrl}/readyz`);
  t.equal(ready.status, 503, '/readyz takes the replica out of rotation');
  t.equal(ready.json<{ checks: { redis: string } }>().checks.redis, 'unreachable');
  const health = await call(`${gw.proxyUrl}/health`, { headers: { 'x-api-key': key } });
  t.equal(health.json().status, 'degraded');
});
