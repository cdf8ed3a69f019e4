import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { call } from '../helpers/http.js';
import { runCli, spawnGateway } from '../helpers/process.js';

function tempDir(t: { teardown(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'bastion-cli-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// Starts a handful of real gateway processes one after another: more than tap's default 120 s on a loaded machine.
t.setTimeout(300_000);

t.test('serve with no key and no ALLOW_UNAUTHENTICATED exits non-zero and says how to create a key', async (t) => {
  const dir = tempDir(t);
  const res = await runCli(['serve'], { BASTION_PORT: '0', BASTION_ADMIN_PORT: '0' }, dir);
  t.not(res.code, 0);
  t.match(res.stderr, /No API key exists/);
  t.match(res.stderr, /bastion keys create --tenant/);
  t.match(res.stderr, /ALLOW_UNAUTHENTICATED=true/);
});

t.test('a bad configuration value stops the start and names the variable', async (t) => {
  const res = await runCli(['serve'], { BASTION_PORT: 'http' });
  t.equal(res.code, 2);
  t.match(res.stderr, /Invalid BASTION_PORT: expected an integer from 0 to 65535/);
});

t.test('ALLOW_UNAUTHENTICATED=true starts without keys', async (t) => {
  const dir = tempDir(t);
  const gw = await spawnGateway(t, ['serve'], { ALLOW_UNAUTHENTICATED: 'true' }, dir);
  t.equal((await call(`http://127.0.0.1:${gw.proxyPort}/health`)).status, 200);
  gw.child.kill('SIGTERM');
  t.equal(await gw.exited, 0);
});

t.test('quickstart (npm start) on a fresh directory prints a working key, once', async (t) => {
  const dir = tempDir(t);
  const gw = await spawnGateway(t, ['quickstart'], {}, dir);
  const key = /\n {2}(bst_[0-9A-Za-z]{43})\n/.exec(gw.stdout())?.[1];
  t.ok(key, 'the key is printed');
  const ok = await call(`http://127.0.0.1:${gw.proxyPort}/health`, { headers: { 'x-api-key': key! } });
  t.equal(ok.status, 200);
  const no = await call(`http://127.0.0.1:${gw.proxyPort}/health`);
  t.equal(no.status, 401);
  t.equal(no.headers['www-authenticate'], 'ApiKey');
  gw.child.kill('SIGTERM');
  t.equal(await gw.exited, 0);
  t.equal(gw.stdout().split(key!).length - 1, 2, 'the key appears only in the banner (key line and curl hint), never in logs');

  const again = await spawnGateway(t, ['quickstart'], {}, dir);
  t.notMatch(again.stdout(), /Created a first API key/, 'a second start reuses the existing key');
  again.child.kill('SIGTERM');
  await again.exited;
});

t.test('keys and tenants commands', async (t) => {
  const dir = tempDir(t);
  t.equal((await runCli(['tenants', 'create', 'acme', '--plan', 'startup'], {}, dir)).code, 0);
  const dup = await runCli(['tenants', 'create', 'acme'], {}, dir);
  t.equal(dup.code, 2);
  t.match(dup.stderr, /already exists/);
  t.match((await runCli(['tenants', 'create', 'x', '--plan', 'gold'], {}, dir)).stderr, /--plan must be one of free, startup/);
  const created = await runCli(['keys', 'create', '--tenant', 'acme', '--name', 'ci', '--rate', '120'], {}, dir);
  t.equal(created.code, 0);
  const key = /key:\s+(bst_\w+)/.exec(created.stdout)![1];
  const id = /key_id:\s+(\S+)/.exec(created.stdout)![1];
  const list = await runCli(['keys', 'list'], {}, dir);
  t.match(list.stdout, new RegExp(`${id}\\tacme\\t${key.slice(0, 10)}…\\t120/min\\tactive\\tci`));
  t.notOk(list.stdout.includes(key), 'list never shows the full key');
  t.match((await runCli(['keys', 'create', '--tenant', 'acme', '--rate', '0'], {}, dir)).stderr, /--rate must be an integer/);
  t.equal((await runCli(['keys', 'revoke', id], {}, dir)).code, 0);
  t.match((await runCli(['keys', 'list'], {}, dir)).stdout, /revoked/);
  t.match((await runCli(['keys', 'revoke', 'key_nope'], {}, dir)).stderr, /no key key_nope/);
});
