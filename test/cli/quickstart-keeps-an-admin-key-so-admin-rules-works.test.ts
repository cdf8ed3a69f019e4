import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { call } from '../helpers/http.js';
import { spawnGateway } from '../helpers/process.js';

// Two real gateway processes one after another: more than tap's default on a loaded machine.
t.setTimeout(300_000);

t.test('npm start keeps an admin key beside the database, so the documented /admin/rules works, after a restart too', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'bastion-quickstart-admin-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'data', 'admin.key');

  const gw = await spawnGateway(t, ['quickstart'], {}, dir);
  t.equal(statSync(file).mode & 0o777, 0o600, 'the key file is readable by its owner only');
  const adminKey = readFileSync(file, 'utf8').trim();
  t.match(adminKey, /^[A-Za-z0-9_-]{43}$/);
  t.match(gw.stdout(), /Created an admin key in .*admin\.key/);
  t.match(gw.stdout(), /curl -H "X-Admin-Key: \$\(cat .*admin\.key\)"/, 'the start-up text shows how to send it');
  t.match(gw.stdout(), /Evolution loop: review mode .*EVOLUTION_MODE=auto npm start/, 'and what the learning loop does, with the way to auto');
  const rules = await call(`http://127.0.0.1:${gw.adminPort}/admin/rules`, { headers: { 'x-admin-key': adminKey } });
  t.equal(rules.status, 200, 'not 503');
  t.same(rules.json(), { rules: [] });
  t.equal((await call(`http://127.0.0.1:${gw.adminPort}/admin/rules`, { headers: { 'x-admin-key': 'not-the-admin-key-0123456789' } })).status, 401);
  gw.child.kill('SIGTERM');
  await gw.exited;
  t.notOk(gw.stdout().includes(adminKey) || gw.stderr().includes(adminKey), 'the admin key itself never appears in the output');

  const again = await spawnGateway(t, ['quickstart'], { EVOLUTION_MODE: 'auto' }, dir);
  t.teardown(() => void again.child.kill('SIGTERM'));
  t.match(again.stdout(), /Admin key in .*admin\.key/);
  t.notMatch(again.stdout(), /Created an admin key/, 'a second start keeps the same key');
  t.match(again.stdout(), /Evolution loop: auto mode/, 'EVOLUTION_MODE set by the user wins');
  t.equal(readFileSync(file, 'utf8').trim(), adminKey);
  t.equal((await call(`http://127.0.0.1:${again.adminPort}/admin/rules`, { headers: { 'x-admin-key': adminKey } })).status, 200, 'the same key works after the restart');
});
