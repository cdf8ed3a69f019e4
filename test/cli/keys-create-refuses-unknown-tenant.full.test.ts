import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { runCli } from '../helpers/process.js';

function tempDir(t: { teardown(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'bastion-keys-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

t.test('a key for a tenant that does not exist is refused with exit code 2, and no tenant appears', async (t) => {
  const dir = tempDir(t);
  const res = await runCli(['keys', 'create', '--tenant', 'nosuch'], {}, dir);
  t.equal(res.code, 2);
  t.match(res.stderr, /no tenant nosuch: create it with `bastion tenants create nosuch/);
  t.match(res.stderr, /--create-tenant/);
  t.notMatch(res.stdout, /key:/, 'no key is printed');
  t.equal((await runCli(['keys', 'list'], {}, dir)).stdout, '', 'no key was stored');
  const tenant = await runCli(['tenants', 'create', 'nosuch'], {}, dir);
  t.equal(tenant.code, 0, 'the tenant was not created as a side effect');
});

t.test('--create-tenant creates the tenant on the default plan and the key', async (t) => {
  const dir = tempDir(t);
  const res = await runCli(['keys', 'create', '--tenant', 'newco', '--create-tenant'], {}, dir);
  t.equal(res.code, 0);
  t.match(res.stdout, /tenant: newco\nrate:\s+60\/min\n/, 'a key without --rate keeps the SPEC §8 default of 60');
  const dup = await runCli(['tenants', 'create', 'newco'], {}, dir);
  t.match(dup.stderr, /tenant newco already exists/);
  const second = await runCli(['keys', 'create', '--tenant', 'newco', '--create-tenant', '--rate', '5'], {}, dir);
  t.equal(second.code, 0, '--create-tenant on an existing tenant keeps it and adds the key');
  t.equal((await runCli(['keys', 'list', '--tenant', 'newco'], {}, dir)).stdout.trim().split('\n').length, 2);
});

t.test('an existing tenant needs no flag', async (t) => {
  const dir = tempDir(t);
  t.equal((await runCli(['tenants', 'create', 'acme', '--plan', 'startup'], {}, dir)).code, 0);
  const res = await runCli(['keys', 'create', '--tenant', 'acme'], {}, dir);
  t.equal(res.code, 0);
  t.match(res.stdout, /key:\s+bst_/);
});
