import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { bearer, login } from '../helpers/portal.js';
import { runCli } from '../helpers/process.js';

const PASSWORD = 'violet-Harbour-lantern-42';

function tempDir(t: { teardown(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'bastion-accounts-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// The quickstart's key and the app's traffic belong to tenant `default`, which sign-up never reaches (it opens a
// new tenant): an operator creates a console account for it from the command line.
t.test('an account created for the default tenant signs in and sees the traffic of the quickstart key', async (t) => {
  const dir = tempDir(t);
  const env = { DATABASE_URL: `sqlite:${join(dir, 'bastion.db')}` };
  const created = await runCli(['keys', 'create', '--tenant', 'default', '--create-tenant'], env, dir);
  t.equal(created.code, 0, created.stderr);
  const key = /key:\s+(\S+)/.exec(created.stdout)![1];

  const account = await runCli(['accounts', 'create', '--tenant', 'default', '--email', 'Ops@Example.com'], env, dir, `${PASSWORD}\n`);
  t.equal(account.code, 0, account.stderr);
  t.match(account.stdout, /account acc_\w+ for tenant default \(ops@example\.com\)/);
  t.notMatch(account.stdout + account.stderr, PASSWORD, 'the password is never echoed');

  const gw = await startTestGateway(t, { databaseUrl: env.DATABASE_URL });
  for (let i = 0; i < 3; i++) {
    const res = await call(`${gw.proxyUrl}/filter`, { headers: { 'x-api-key': key }, body: { content: `hello number ${i}` } });
    t.equal(res.status, 200);
  }
  await gw.services.stats.flush();

  const { access } = await login(gw.adminUrl, 'ops@example.com', PASSWORD);
  const me = await call(`${gw.adminUrl}/portal/me`, { headers: bearer(access) });
  t.equal(me.json<{ tenant_id: string }>().tenant_id, 'default');
  const summary = await call(`${gw.adminUrl}/portal/stats/summary`, { headers: bearer(access) });
  t.equal(summary.status, 200);
  t.match(summary.json(), { requests: 3, allowed: 3 }, "the console shows the default tenant's traffic");
});

t.test('the password may come from BASTION_ACCOUNT_PASSWORD; bad input is refused with exit 2 and nothing stored', async (t) => {
  const dir = tempDir(t);
  const env = { DATABASE_URL: `sqlite:${join(dir, 'bastion.db')}` };
  const noTenant = await runCli(['accounts', 'create', '--tenant', 'default', '--email', 'a@example.com'], { ...env, BASTION_ACCOUNT_PASSWORD: PASSWORD }, dir);
  t.equal(noTenant.code, 2);
  t.match(noTenant.stderr, /no tenant default/);
  t.equal((await runCli(['tenants', 'create', 'default'], env, dir)).code, 0);

  const weak = await runCli(['accounts', 'create', '--tenant', 'default', '--email', 'a@example.com'], { ...env, BASTION_ACCOUNT_PASSWORD: 'Password1234!' }, dir);
  t.equal(weak.code, 2);
  t.match(weak.stderr, /password/i);
  const empty = await runCli(['accounts', 'create', '--tenant', 'default', '--email', 'a@example.com'], env, dir, '');
  t.equal(empty.code, 2, 'no password at all');
  t.equal((await runCli(['accounts', 'create', '--tenant', 'default', '--email', 'not-an-email'], { ...env, BASTION_ACCOUNT_PASSWORD: PASSWORD }, dir)).code, 2);

  const ok = await runCli(['accounts', 'create', '--tenant', 'default', '--email', 'a@example.com'], { ...env, BASTION_ACCOUNT_PASSWORD: PASSWORD }, dir);
  t.equal(ok.code, 0, ok.stderr);
  const again = await runCli(['accounts', 'create', '--tenant', 'default', '--email', 'A@example.com'], { ...env, BASTION_ACCOUNT_PASSWORD: PASSWORD }, dir);
  t.equal(again.code, 2);
  t.match(again.stderr, /already has an account/);
});
