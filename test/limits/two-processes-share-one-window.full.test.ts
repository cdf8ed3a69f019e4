import t from 'tap';
import { REDIS_URL, needs, postgresUrl, redisPrefix } from '../helpers/backends.js';
import { call } from '../helpers/http.js';
import { runCli, spawnGateway } from '../helpers/process.js';

t.test('two gateway processes on one Redis and one key allow exactly the key rate (SPEC §8)', { ...(await needs('postgres')), ...(await needs('redis')) }, async (t) => {
  const env = { DATABASE_URL: await postgresUrl(t), REDIS_URL, BASTION_REDIS_PREFIX: redisPrefix() };
  const created = await runCli(['keys', 'create', '--tenant', 'shared', '--create-tenant', '--rate', '7'], env);
  t.equal(created.code, 0, created.stderr);
  const key = /key:\s+(bst_\w+)/.exec(created.stdout)![1];

  const a = await spawnGateway(t, ['serve'], env);
  const b = await spawnGateway(t, ['serve'], env);
  const statuses: number[] = [];
  // Alternate between the processes, concurrently in pairs, well over the rate.
  for (let i = 0; i < 10; i++) {
    const pair = await Promise.all(
      [a, b].map((p) => call(`http://127.0.0.1:${p.proxyPort}/filter`, { headers: { 'x-api-key': key }, body: { content: `message ${i}` } })),
    );
    statuses.push(...pair.map((r) => r.status));
  }
  t.equal(statuses.filter((s) => s === 200).length, 7, 'exactly 7 of 20 admitted across both processes');
  t.equal(statuses.filter((s) => s === 429).length, 13);

  t.test('revoking with the CLI reaches both processes on their next request', async (t) => {
    const other = await runCli(['keys', 'create', '--tenant', 'shared'], env);
    const k2 = /key:\s+(bst_\w+)/.exec(other.stdout)![1];
    const id = /key_id:\s+(\S+)/.exec(other.stdout)![1];
    for (const p of [a, b]) t.equal((await call(`http://127.0.0.1:${p.proxyPort}/health`, { headers: { 'x-api-key': k2 } })).status, 200, 'cached');
    t.equal((await runCli(['keys', 'revoke', id], env)).code, 0);
    await new Promise((r) => setTimeout(r, 200)); // pub/sub delivery
    for (const p of [a, b]) t.equal((await call(`http://127.0.0.1:${p.proxyPort}/health`, { headers: { 'x-api-key': k2 } })).status, 401);
  });

  t.test('SIGTERM drains and exits cleanly', async (t) => {
    a.child.kill('SIGTERM');
    b.child.kill('SIGTERM');
    t.equal(await a.exited, 0);
    t.equal(await b.exited, 0);
  });
});
