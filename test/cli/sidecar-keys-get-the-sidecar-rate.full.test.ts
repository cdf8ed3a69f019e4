import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { loadConfig } from '../../src/config/load.js';
import { listKeys, revokeKey, syncBootstrapKeys } from '../../src/storage/api-keys.js';
import { migrate, openStorage } from '../../src/storage/database.js';
import { ensureTenant } from '../../src/storage/tenants.js';
import { databaseUrl, needs, type StorageBackend } from '../helpers/backends.js';
import { call } from '../helpers/http.js';
import { runCli, spawnGateway } from '../helpers/process.js';
import { startTestGateway } from '../helpers/gateway.js';
import { policies } from '../helpers/ratelimit.js';

function tempDir(t: { teardown(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'bastion-sidecar-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The `q` of the requests-per-minute policy in a RateLimit-Policy header. */
function minuteQuota(header: string | string[] | undefined): number | undefined {
  return policies(String(header)).get('requests-per-minute')?.q;
}

t.test('BASTION_SIDECAR_KEY_RATE defaults to 600 while keys without --rate keep 60', async (t) => {
  const config = loadConfig({});
  t.equal(config.sidecarKeyRate, 600);
  t.equal(config.defaultRatePerMinute, 60);
  t.throws(() => loadConfig({ BASTION_SIDECAR_KEY_RATE: '0' }), /Invalid BASTION_SIDECAR_KEY_RATE: expected an integer from 1 to 1000000/);
});

t.test("npm start's quickstart key gets the sidecar rate, not the 60/min default", async (t) => {
  const dir = tempDir(t);
  const gw = await spawnGateway(t, ['quickstart'], {}, dir);
  const key = /\n {2}(bst_[0-9A-Za-z]{43})\n/.exec(gw.stdout())![1];
  t.match(gw.stdout(), /600 requests\/min/, 'the banner says the rate');
  const res = await call(`http://127.0.0.1:${gw.proxyPort}/health`, { headers: { 'x-api-key': key } });
  t.equal(minuteQuota(res.headers['ratelimit-policy']), 600);
  gw.child.kill('SIGTERM');
  await gw.exited;
  t.match((await runCli(['keys', 'list'], {}, dir)).stdout, /\t600\/min\tactive\tquickstart\n/);
});

t.test('the quickstart rate is configurable and is the one enforced', async (t) => {
  const dir = tempDir(t);
  const gw = await spawnGateway(t, ['quickstart'], { BASTION_SIDECAR_KEY_RATE: '3' }, dir);
  const key = /\n {2}(bst_[0-9A-Za-z]{43})\n/.exec(gw.stdout())![1];
  const statuses: number[] = [];
  for (let i = 0; i < 4; i++) {
    const res = await call(`http://127.0.0.1:${gw.proxyPort}/filter`, { headers: { 'x-api-key': key }, body: { content: 'hello there' } });
    statuses.push(res.status);
  }
  t.same(statuses, [200, 200, 200, 429], 'the configured rate is the one enforced');
  gw.child.kill('SIGTERM');
  await gw.exited;
});

t.test('bootstrap keys (BASTION_API_KEYS, the Helm chart’s generated key) get the sidecar rate, re-applied at each start', async (t) => {
  const dir = tempDir(t);
  const databaseUrl = `sqlite:${join(dir, 'bastion.db')}`;
  const apiKeys = [{ tenant: 'app', key: 'sidecar-key-0123456789abcdef' }];
  const first = await startTestGateway(t, { databaseUrl, config: { allowUnauthenticated: false, apiKeys } });
  const res = await call(`${first.proxyUrl}/health`, { headers: { 'x-api-key': apiKeys[0].key } });
  t.equal(res.status, 200);
  t.equal(minuteQuota(res.headers['ratelimit-policy']), 600);
  await first.close();

  const second = await startTestGateway(t, { databaseUrl, config: { allowUnauthenticated: false, apiKeys, sidecarKeyRate: 1200 } });
  const again = await call(`${second.proxyUrl}/health`, { headers: { 'x-api-key': apiKeys[0].key } });
  t.equal(minuteQuota(again.headers['ratelimit-policy']), 1200, 'a changed rate reaches a key already stored');
  await second.close();
});

for (const backend of ['sqlite', 'postgres'] as StorageBackend[]) {
  t.test(`${backend}: a changed bootstrap rate is written to the stored key; a revoked one stays revoked`, backend === 'postgres' ? await needs('postgres') : {}, async (t) => {
    const storage = openStorage(await databaseUrl(t, backend));
    t.teardown(() => storage.close());
    await migrate(storage);
    await ensureTenant(storage.db, 'app', 'free');
    const keys = [{ tenant: 'app', key: 'sidecar-key-0123456789abcdef' }];
    await syncBootstrapKeys(storage.db, keys, 600);
    t.same((await listKeys(storage.db, 'app')).map((k) => k.ratePerMinute), [600]);
    await syncBootstrapKeys(storage.db, keys, 1500);
    const [stored] = await listKeys(storage.db, 'app');
    t.equal(stored!.ratePerMinute, 1500);
    await revokeKey(storage.db, stored!.keyId);
    t.same(await syncBootstrapKeys(storage.db, keys, 60), []);
    const after = await listKeys(storage.db, 'app');
    t.equal(after.length, 1, 'no second key for the same bootstrap value');
    t.ok(after[0]!.revokedAt, 'an operator revocation survives a restart');
    t.equal(after[0]!.ratePerMinute, 1500, 'a revoked key is not touched');
  });
}
