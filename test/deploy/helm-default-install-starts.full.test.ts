// Issue 11: a default `helm install` must start. The chart generates the first API key and the master key, keeps
// them across upgrades (lookup), binds a sidecar's listeners to loopback, and says how to read the key.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import type { ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import { loadConfig } from '../../src/config/load.js';
import { call } from '../helpers/http.js';
import { spawnGateway } from '../helpers/process.js';
import { policies } from '../helpers/ratelimit.js';
import { CHART, find, notes, template, type K8sObject } from './fixtures/helm.js';

function render(values: object, chart = CHART): K8sObject[] {
  const res = template(values, chart);
  if (res.code !== 0) throw new Error(`helm template failed: ${res.stderr}`);
  return res.objects;
}

function decoded(objects: K8sObject[]): Record<string, string> {
  const secret = find(objects, 'Secret', 'demo-bastion') as unknown as Secret;
  return Object.fromEntries(Object.entries(secret.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()]));
}

const configMap = (objects: K8sObject[]) => (find(objects, 'ConfigMap', 'demo-bastion') as unknown as ConfigMap).data!;

t.test('a default install generates a first API key and a master key that Bastion accepts', async (t) => {
  const data = decoded(render({}));
  t.same(Object.keys(data).sort(), ['BASTION_API_KEYS', 'BASTION_MASTER_KEY']);
  t.match(data.BASTION_API_KEYS, /^default:bst_[0-9A-Za-z]{43}$/);
  const config = loadConfig({ BASTION_API_KEYS: data.BASTION_API_KEYS, BASTION_MASTER_KEY: data.BASTION_MASTER_KEY });
  t.equal(config.apiKeys.length, 1);
  t.equal(config.masterKey?.length, 32, 'a 32-byte master key');
  const again = decoded(render({}));
  t.not(again.BASTION_API_KEYS, data.BASTION_API_KEYS, 'random per render (helm template has no lookup)');
  t.not(again.BASTION_MASTER_KEY, data.BASTION_MASTER_KEY);
  t.match(decoded(render({ secrets: { generate: { tenant: 'shop' } } })).BASTION_API_KEYS, /^shop:bst_/);
});

t.test('values you set win, generate.enabled=false generates nothing, existingSecret renders no Secret', async (t) => {
  const mine = decoded(render({ secrets: { values: { BASTION_API_KEYS: 'app:PLACEHOLDER-API-KEY-000000' } } }));
  t.equal(mine.BASTION_API_KEYS, 'app:PLACEHOLDER-API-KEY-000000');
  t.ok(mine.BASTION_MASTER_KEY, 'the master key is still generated');
  t.same(decoded(render({ secrets: { generate: { enabled: false } } })), {});
  t.notOk(render({ secrets: { existingSecret: 'mine' } }).some((o) => o.kind === 'Secret'));
});

t.test('the Secret is looked up under its own name, and values found there are kept', async (t) => {
  const source = readFileSync(join(CHART, 'templates', 'secret.yaml'), 'utf8');
  t.match(source, /\$name := include "bastion\.fullname" \./);
  t.match(source, /lookup "v1" "Secret" \.Release\.Namespace \$name/, 'lookup reads the Secret this template writes');
  t.match(source, /include "bastion\.secretData" \(dict "Values" \.Values "existing" \$existing\)/);

  // helm template cannot run lookup, so hand the same helper what lookup returns for an installed release.
  const dir = mkdtempSync(join(tmpdir(), 'bastion-lookup-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const chart = join(dir, 'bastion');
  cpSync(CHART, chart, { recursive: true });
  const oldKey = 'default:bst_KEPTKEPTKEPTKEPTKEPTKEPTKEPTKEPTKEPTKEPTKEP';
  const oldMaster = Buffer.alloc(32, 7).toString('base64');
  writeFileSync(
    join(chart, 'templates', 'zz-lookup-probe.yaml'),
    `{{- $existing := dict "data" (dict "BASTION_API_KEYS" (b64enc "${oldKey}") "BASTION_MASTER_KEY" (b64enc "${oldMaster}")) }}
apiVersion: v1
kind: ConfigMap
metadata:
  name: lookup-probe
data:
  upgrade: {{ include "bastion.secretData" (dict "Values" .Values "existing" $existing) | quote }}
  fresh: {{ include "bastion.secretData" (dict "Values" .Values "existing" (dict)) | quote }}
`,
  );
  const probe = (values: object) => {
    const cm = (find(render(values, chart), 'ConfigMap', 'lookup-probe') as unknown as ConfigMap).data!;
    return { upgrade: JSON.parse(cm.upgrade!) as Record<string, string>, fresh: JSON.parse(cm.fresh!) as Record<string, string> };
  };
  const { upgrade, fresh } = probe({});
  t.same(upgrade, { BASTION_API_KEYS: oldKey, BASTION_MASTER_KEY: oldMaster }, 'an upgrade keeps the installed key and master key');
  t.not(fresh.BASTION_API_KEYS, oldKey, 'a first install generates');
  const explicit = probe({ secrets: { values: { BASTION_API_KEYS: 'app:PLACEHOLDER-API-KEY-000000' } } }).upgrade;
  t.equal(explicit.BASTION_API_KEYS, 'app:PLACEHOLDER-API-KEY-000000', 'a value set explicitly replaces the stored one');
  t.equal(explicit.BASTION_MASTER_KEY, oldMaster);
});

t.test('sidecar: both listeners on loopback unless exposeAdmin; gateway: the pod IP', async (t) => {
  const sidecar = render({});
  t.equal(configMap(sidecar).BASTION_HOST, '127.0.0.1');
  t.notOk('BASTION_ADMIN_HOST' in configMap(sidecar));
  t.notOk(sidecar.some((o) => o.kind === 'Service'), 'no Service points at a loopback-only port');

  const exposed = render({ sidecar: { exposeAdmin: true }, networkPolicy: { enabled: true, adminFrom: [{ podSelector: { matchLabels: { role: 'ops' } } }] } });
  t.equal(configMap(exposed).BASTION_HOST, '127.0.0.1', 'the data plane stays on loopback');
  t.equal(configMap(exposed).BASTION_ADMIN_HOST, '0.0.0.0');
  const admin = find(exposed, 'Service', 'demo-bastion-admin') as unknown as Service;
  t.same(admin.spec!.ports!.map((p) => p.targetPort), [8081]);

  const gateway = render({ mode: 'gateway' });
  t.equal(configMap(gateway).BASTION_HOST, '0.0.0.0');
  t.match(template({ env: { BASTION_HOST: '0.0.0.0' } }).stderr, /env\.BASTION_HOST is managed by the chart: set by mode/);
  t.match(template({ env: { BASTION_ADMIN_HOST: '0.0.0.0' } }).stderr, /env\.BASTION_ADMIN_HOST is managed by the chart: set sidecar\.exposeAdmin/);
});

t.test('the generated key gets keyRatePerMinute (BASTION_SIDECAR_KEY_RATE), not the 60/min default', async (t) => {
  t.equal(configMap(render({})).BASTION_SIDECAR_KEY_RATE, '600');
  t.equal(configMap(render({ keyRatePerMinute: 1500 })).BASTION_SIDECAR_KEY_RATE, '1500');
  t.match(template({ keyRatePerMinute: 0 }).stderr, /keyRatePerMinute/);
  t.match(template({ env: { BASTION_SIDECAR_KEY_RATE: '5' } }).stderr, /managed by the chart: set keyRatePerMinute/);
});

t.test('Bastion starts from exactly what a default install renders, and the generated key works', async (t) => {
  const objects = render({});
  const env: NodeJS.ProcessEnv = { ...configMap(objects), ...decoded(objects) };
  const dir = mkdtempSync(join(tmpdir(), 'bastion-helm-start-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // Only what a test machine needs changes: free ports, one worker, a temp SQLite file.
  const gw = await spawnGateway(t, ['serve'], { ...env, BASTION_PORT: '0', BASTION_ADMIN_PORT: '0', BASTION_WORKERS: '1', DATABASE_URL: `sqlite:${join(dir, 'b.db')}` });
  const key = env.BASTION_API_KEYS!.slice(env.BASTION_API_KEYS!.indexOf(':') + 1);
  const res = await call(`http://127.0.0.1:${gw.proxyPort}/health`, { headers: { 'x-api-key': key } });
  t.equal(res.status, 200);
  t.equal(policies(String(res.headers['ratelimit-policy'])).get('requests-per-minute')?.q, 600);
  t.notOk(gw.stdout().includes(key) || gw.stderr().includes(key), 'the key never reaches the logs');
  gw.child.kill('SIGTERM');
  t.equal(await gw.exited, 0);
});

t.test('install notes say how to read the generated key and which surfaces need more than a sidecar', async (t) => {
  const text = notes({});
  t.match(text, "kubectl -n apps get secret demo-bastion -o jsonpath='{.data.BASTION_API_KEYS}' | base64 -d | cut -d: -f2-");
  t.match(text, /tenant "default", 600 requests\/min/);
  t.match(text, /console and portal, site pages, \/ext\/\* \(browser extension\) and tunnels/);
  t.notMatch(text, /bst_[0-9A-Za-z]{43}/, 'the notes never print the key itself');
  t.notMatch(notes({ mode: 'gateway' }), /Sidecar mode binds/);
  t.notMatch(notes({ secrets: { existingSecret: 'mine' } }), /were generated/);
});
