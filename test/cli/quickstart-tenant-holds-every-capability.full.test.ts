import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { call } from '../helpers/http.js';
import { bearer, login } from '../helpers/portal.js';
import { runCli, spawnGateway } from '../helpers/process.js';

const PASSWORD = 'violet-Harbour-lantern-42';

function tempDir(t: { teardown(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'bastion-owner-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// Real gateway processes, one after another.
t.setTimeout(300_000);

/** npm start in `dir`, a console account for the default tenant, and what the portal tells it. */
async function ownerView(t: Test, dir: string, env: NodeJS.ProcessEnv = {}) {
  const gw = await spawnGateway(t, ['quickstart'], env, dir);
  const account = await runCli(['accounts', 'create', '--tenant', 'default', '--email', 'ops@example.com'], { ...env, BASTION_ACCOUNT_PASSWORD: PASSWORD }, dir);
  t.equal(account.code, 0, account.stderr);
  const admin = `http://127.0.0.1:${gw.adminPort}`;
  const { access } = await login(admin, 'ops@example.com', PASSWORD);
  const billing = await call(`${admin}/portal/billing`, { headers: bearer(access) });
  const flags = await call(`${admin}/portal/stats/flags`, { headers: bearer(access) });
  return { gw, billing, flags };
}

t.test('npm start on a fresh clone: the default tenant holds every capability with no quota, and says so', async (t) => {
  const dir = tempDir(t);
  const { gw, billing, flags } = await ownerView(t, dir);
  t.equal(billing.status, 200);
  const plan = billing.json<{ tier: string; monthly_quota: number | null; addons: string[]; available_addons: { name: string }[]; upgrade_url: string | null }>();
  t.equal(plan.monthly_quota, null, 'no monthly quota');
  t.same([...plan.addons].sort(), plan.available_addons.map((a) => a.name).sort(), 'every add-on');
  t.equal(plan.upgrade_url, null, 'no upgrade link: nobody to buy from');
  t.equal(flags.status, 200, 'the flags breakdown is not behind a plan');
  t.notMatch(billing.body + flags.body, /bastion\.example/, 'no placeholder URL');
  t.match(gw.stdout(), /"upstreams":\{"openai":"https:\/\/api\.openai\.com","anthropic":"https:\/\/api\.anthropic\.com"/, 'the start-up line names the upstreams in use');
  gw.child.kill('SIGTERM');
  t.equal(await gw.exited, 0);

  const again = await spawnGateway(t, ['quickstart'], {}, dir);
  t.match(again.stdout(), /An API key already exists/, 'a restart says a key exists');
  t.match(again.stdout(), /npx bastion keys create --tenant default/, 'and how to make a new one');
  again.child.kill('SIGTERM');
  await again.exited;
});

t.test('BASTION_PLANS=resell: the catalogue applies, refusals carry no placeholder link', async (t) => {
  const dir = tempDir(t);
  const { gw, billing, flags } = await ownerView(t, dir, { BASTION_PLANS: 'resell' });
  t.match(billing.json(), { tier: 'free', monthly_quota: 1000, upgrade_url: null });
  t.equal(flags.status, 403);
  t.match(flags.json(), { error: { code: 'BASTION_ERR_PLAN_TOO_LOW', required_tier: 'startup' } });
  t.notOk('upgrade_url' in flags.json<{ error: object }>().error, 'no link unless BASTION_UPGRADE_URL is set');
  gw.child.kill('SIGTERM');
  await gw.exited;
});
