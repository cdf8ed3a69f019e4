import t from 'tap';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, PersistentVolumeClaim, Secret, Service, type IContainer, type IVolume } from 'kubernetes-models/v1';
import { SCHEMA } from '../../src/config/schema.js';
import { find, lint, notes, template, type K8sObject } from './fixtures/helm.js';

// Obvious placeholders: the point is to prove where they end up, not to look real.
const API_KEYS = 'app:PLACEHOLDER-API-KEY-000000';
const ADMIN_KEY = 'PLACEHOLDER-ADMIN-KEY-0000000000';
const MASTER_KEY = '00'.repeat(32);
const PG_URL = 'postgres://bastion:PLACEHOLDER-PASSWORD@postgres:5432/bastion';
const REDIS_URL = 'redis://redis:6379/0';
const SECRETS = { BASTION_API_KEYS: API_KEYS, BASTION_ADMIN_KEY: ADMIN_KEY, BASTION_MASTER_KEY: MASTER_KEY, UPSTREAM_API_KEY: 'PLACEHOLDER-UPSTREAM-KEY' };

const scaledGateway = {
  mode: 'gateway',
  replicas: 3,
  database: { kind: 'postgres', url: PG_URL },
  redis: { url: REDIS_URL },
};

const SCENARIOS: Record<string, object> = {
  'sidecar (defaults)': {},
  'sidecar with secrets': { secrets: { values: SECRETS } },
  'sidecar, native, network policy': { sidecar: { native: true }, networkPolicy: { enabled: true } },
  'gateway, one replica on SQLite with a PVC': { mode: 'gateway', persistence: { enabled: true } },
  'gateway, scaled out with HPA and network policy': {
    ...scaledGateway,
    autoscaling: { enabled: true, minReplicas: 2, maxReplicas: 6 },
    networkPolicy: { enabled: true, adminFrom: [{ podSelector: { matchLabels: { role: 'ops' } } }] },
  },
  'gateway, scaled out from an existing Secret': {
    mode: 'gateway',
    replicas: 2,
    secrets: { existingSecret: 'bastion-secrets' },
    database: { kind: 'postgres' },
    redis: { enabled: true },
  },
};

// Every kind the chart can render, with its schema. An unknown kind fails the test rather than going unchecked.
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'v1/PersistentVolumeClaim': PersistentVolumeClaim,
  'apps/v1/Deployment': Deployment,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
};

function render(values: object): K8sObject[] {
  const res = template(values);
  if (res.code !== 0) throw new Error(`helm template failed: ${res.stderr}`);
  return res.objects;
}

const deployment = (o: K8sObject) => new Deployment(o as never);
const bastionOf = (d: Deployment): IContainer => {
  const spec = d.spec!.template.spec!;
  const c = [...(spec.initContainers ?? []), ...spec.containers].find((x) => x.name === 'bastion');
  if (!c) throw new Error(`no bastion container in ${d.metadata!.name}`);
  return c;
};

t.test('helm lint --strict passes and every rendered object is a valid Kubernetes object', async (t) => {
  for (const [name, values] of Object.entries(SCENARIOS)) {
    const linted = lint(values);
    t.equal(linted.code, 0, `helm lint --strict: ${name}`, { output: linted.stdout + linted.stderr });
    const objects = render(values);
    t.ok(objects.length >= 3, `${name}: renders objects`);
    for (const obj of objects) {
      const Model = MODELS[`${obj.apiVersion}/${obj.kind}`];
      if (!Model) {
        t.fail(`${name}: no schema registered for ${obj.apiVersion}/${obj.kind}`);
        continue;
      }
      t.doesNotThrow(() => new Model(obj as never).validate(), `${name}: ${obj.kind}/${obj.metadata.name} validates`);
    }
  }
});

t.test('sidecar demo pod: the app calls the Bastion beside it on loopback', async (t) => {
  const objects = render({});
  const pod = deployment(find(objects, 'Deployment', 'demo-bastion-demo')).spec!.template.spec!;
  t.same(pod.containers.map((c) => c.name).sort(), ['app', 'bastion']);
  const app = pod.containers.find((c) => c.name === 'app')!;
  t.equal(app.env?.find((e) => e.name === 'OPENAI_BASE_URL')?.value, 'http://127.0.0.1:8080/v1');
  t.notOk(objects.some((o) => o.kind === 'Deployment' && o.metadata.name === 'demo-bastion'), 'no gateway Deployment');
  t.notOk(objects.some((o) => o.kind === 'Service' && o.metadata.name === 'demo-bastion'), 'no data Service: the app uses loopback');

  const native = deployment(find(render({ sidecar: { native: true } }), 'Deployment', 'demo-bastion-demo')).spec!.template.spec!;
  t.same(native.containers.map((c) => c.name), ['app'], 'native sidecar: only the app in containers');
  t.equal(native.initContainers?.[0]?.name, 'bastion');
  t.equal(native.initContainers?.[0]?.restartPolicy, 'Always', 'restartable init container = native sidecar');

  const off = render({ sidecar: { demoApp: { enabled: false } } });
  t.notOk(off.some((o) => o.kind === 'Deployment'), 'demoApp.enabled=false renders no Deployment');
  t.ok(off.some((o) => o.kind === 'ConfigMap') && off.some((o) => o.kind === 'Secret'), 'config and secret still rendered');
});

t.test('probes: startup and liveness on /livez, readiness on /readyz, all on the data port', async (t) => {
  for (const values of [{ mode: 'gateway' }, { mode: 'gateway', ports: { http: 9090, admin: 9091 } }]) {
    const objects = render(values);
    const cm = find(objects, 'ConfigMap', 'demo-bastion') as unknown as ConfigMap;
    const port = Number(cm.data!.BASTION_PORT);
    const d = objects.find((o) => o.kind === 'Deployment')!;
    const c = bastionOf(deployment(d));
    t.equal(c.startupProbe?.httpGet?.path, '/livez', 'startup waits for the process, not for Redis');
    t.equal(c.livenessProbe?.httpGet?.path, '/livez');
    t.equal(c.readinessProbe?.httpGet?.path, '/readyz');
    for (const probe of [c.startupProbe, c.livenessProbe, c.readinessProbe]) t.equal(probe?.httpGet?.port, port);
  }
  // Sidecar: the data plane is on 127.0.0.1, which the kubelet cannot reach, so the probes run in the container.
  for (const values of [{}, { ports: { http: 9090, admin: 9091 } }]) {
    const objects = render(values);
    const port = Number((find(objects, 'ConfigMap', 'demo-bastion') as unknown as ConfigMap).data!.BASTION_PORT);
    const c = bastionOf(deployment(objects.find((o) => o.kind === 'Deployment')!));
    const urls = [c.startupProbe, c.livenessProbe, c.readinessProbe].map((p) => /fetch\('([^']+)'\)/.exec(p?.exec?.command?.[2] ?? '')?.[1]);
    t.same(urls, [`http://127.0.0.1:${port}/livez`, `http://127.0.0.1:${port}/livez`, `http://127.0.0.1:${port}/readyz`]);
    t.equal(c.startupProbe?.exec?.command?.[0], 'node', 'the image has node, not curl');
  }
});

t.test('secrets stay out of the ConfigMap and out of the pod spec', async (t) => {
  const secretValues = [...Object.values(SECRETS), PG_URL, REDIS_URL];
  const objects = render({ ...scaledGateway, secrets: { values: SECRETS } });
  for (const obj of objects.filter((o) => o.kind !== 'Secret')) {
    const text = JSON.stringify(obj);
    for (const s of secretValues) t.notOk(text.includes(s), `${obj.kind}/${obj.metadata.name} does not contain a secret`);
  }
  const cm = find(objects, 'ConfigMap', 'demo-bastion') as unknown as ConfigMap;
  const secretNames = Object.values(SCHEMA).filter((s) => s.secret).map((s) => s.env);
  for (const key of [...secretNames, 'DATABASE_URL', 'REDIS_URL']) t.notOk(key in cm.data!, `ConfigMap has no ${key}`);
  const secret = find(objects, 'Secret', 'demo-bastion') as unknown as Secret;
  const decoded = Object.fromEntries(Object.entries(secret.data!).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()]));
  t.same(decoded, { ...SECRETS, DATABASE_URL: PG_URL, REDIS_URL });

  const c = bastionOf(deployment(find(objects, 'Deployment', 'demo-bastion')));
  t.same(c.envFrom?.map((e) => e.configMapRef?.name ?? e.secretRef?.name), ['demo-bastion', 'demo-bastion'], 'ConfigMap and Secret loaded');
  for (const key of ['DATABASE_URL', 'REDIS_URL']) {
    const ref = c.env?.find((e) => e.name === key)?.valueFrom?.secretKeyRef;
    t.equal(ref?.name, 'demo-bastion', `${key} is named explicitly`);
    t.notOk(ref?.optional, `a missing ${key} stops the pod instead of Bastion running on private state`);
  }

  const existing = render({ secrets: { existingSecret: 'mine' } });
  t.notOk(existing.some((o) => o.kind === 'Secret'), 'existingSecret: the chart creates no Secret');
  const loaded = bastionOf(deployment(find(existing, 'Deployment', 'demo-bastion-demo'))).envFrom!;
  t.ok(loaded.some((e) => e.secretRef?.name === 'mine'));
  t.match(template({ secrets: { existingSecret: 'mine', values: { BASTION_API_KEYS: API_KEYS } } }).stderr, /secrets\.existingSecret is set/);
  t.match(template({ secrets: { values: { DATABASE_URL: PG_URL } } }).stderr, /secrets\.values\.DATABASE_URL: use database\.url/);
});

t.test('every setting schema.ts marks secret is refused in the plain env map', async (t) => {
  const secretNames = Object.values(SCHEMA).filter((s) => s.secret).map((s) => s.env);
  t.ok(secretNames.includes('BASTION_ADMIN_KEY'), 'schema.ts lists its secrets');
  for (const name of [...secretNames, 'DATABASE_URL', 'REDIS_URL']) {
    const res = template({ env: { [name]: 'PLACEHOLDER-SECRET-VALUE-0000000000' } });
    t.not(res.code, 0, `env.${name} refused`);
    t.match(res.stderr, new RegExp(`env\\.${name} would put a secret into a ConfigMap`));
    t.notOk(res.stderr.includes('PLACEHOLDER-SECRET-VALUE'), 'the refusal does not echo the value');
  }
});

t.test('more than one gateway replica on SQLite fails to render, with the reason', async (t) => {
  const sqlite = template({ mode: 'gateway', replicas: 2 });
  t.not(sqlite.code, 0);
  t.match(sqlite.stderr, /gateway mode with 2 replicas needs PostgreSQL \(database\.kind=postgres\): with SQLite each replica keeps its own database/);

  const hpa = template({ mode: 'gateway', autoscaling: { enabled: true, minReplicas: 1, maxReplicas: 4 } });
  t.match(hpa.stderr, /with 4 replicas needs PostgreSQL/, 'autoscaling counts as more than one replica');

  const noRedis = template({ mode: 'gateway', replicas: 2, database: { kind: 'postgres', url: PG_URL } });
  t.match(noRedis.stderr, /needs Redis/);

  const mismatch = template({ mode: 'gateway', database: { kind: 'sqlite', url: PG_URL } });
  t.match(mismatch.stderr, /database\.url is a PostgreSQL URL: set database\.kind=postgres/);

  t.equal(deployment(find(render(scaledGateway), 'Deployment', 'demo-bastion')).spec!.replicas, 3, 'PostgreSQL + Redis scale out');
  t.equal(template({ replicas: 4 }).code, 0, 'sidecar mode ignores replicas (each app pod has its own Bastion)');
});

t.test('the admin port is only on the ClusterIP -admin Service', async (t) => {
  const objects = render({ ...scaledGateway, service: { type: 'LoadBalancer' } });
  const data = find(objects, 'Service', 'demo-bastion') as unknown as Service;
  t.equal(data.spec!.type, 'LoadBalancer');
  t.same(data.spec!.ports!.map((p) => [p.port, p.targetPort]), [[8080, 8080]], 'data Service exposes only 8080');
  const admin = find(objects, 'Service', 'demo-bastion-admin') as unknown as Service;
  t.equal(admin.spec!.type, 'ClusterIP', 'admin stays cluster-internal even when the data Service is public');
  t.same(admin.spec!.ports!.map((p) => p.targetPort), [8081]);

  const policy = find(
    render({ ...scaledGateway, networkPolicy: { enabled: true, adminFrom: [{ podSelector: { matchLabels: { role: 'ops' } } }] } }),
    'NetworkPolicy',
    'demo-bastion',
  ) as unknown as NetworkPolicy;
  const adminRule = policy.spec!.ingress!.find((r) => r.ports?.some((p) => p.port === 8081));
  t.same(adminRule?.from, [{ podSelector: { matchLabels: { role: 'ops' } } }], 'admin port only from adminFrom');
  const closed = find(render({ networkPolicy: { enabled: true } }), 'NetworkPolicy', 'demo-bastion') as unknown as NetworkPolicy;
  t.same(closed.spec!.ingress, [], 'sidecar demo: no ingress from outside the pod');
});

t.test('non-root, read-only root filesystem, writable /app/data and /tmp', async (t) => {
  for (const [name, values] of Object.entries(SCENARIOS)) {
    const d = deployment(render(values).find((o) => o.kind === 'Deployment')!);
    const pod = d.spec!.template.spec!;
    const c = bastionOf(d);
    const sc = c.securityContext!;
    t.equal(sc.runAsNonRoot, true, name);
    t.ok(sc.runAsUser && sc.runAsUser !== 0, `${name}: numeric non-zero uid`);
    t.equal(sc.readOnlyRootFilesystem, true, name);
    t.equal(sc.allowPrivilegeEscalation, false, name);
    t.same(sc.capabilities?.drop, ['ALL'], name);
    t.equal(sc.seccompProfile?.type, 'RuntimeDefault', name);
    t.equal(pod.automountServiceAccountToken, false, `${name}: no API token in the pod`);
    const volumeAt = (path: string): IVolume | undefined => {
      const mount = c.volumeMounts?.find((m) => m.mountPath === path);
      return pod.volumes?.find((v) => v.name === mount?.name);
    };
    for (const path of ['/app/data', '/tmp']) {
      const v = volumeAt(path);
      t.ok(v && (v.emptyDir || v.persistentVolumeClaim), `${name}: ${path} is a writable volume`);
      t.notOk(c.volumeMounts!.find((m) => m.mountPath === path)!.readOnly, `${name}: ${path} is mounted read-write`);
    }
  }
  const objects = render(SCENARIOS['gateway, one replica on SQLite with a PVC']!);
  const d = deployment(find(objects, 'Deployment', 'demo-bastion'));
  t.equal(d.spec!.template.spec!.volumes!.find((v) => v.name === 'bastion-data')?.persistentVolumeClaim?.claimName, 'demo-bastion-data');
  t.equal(d.spec!.strategy?.type, 'Recreate', 'a ReadWriteOnce SQLite volume is released before the new pod starts');
  t.ok(find(objects, 'PersistentVolumeClaim', 'demo-bastion-data'));
});

t.test('terminationGracePeriodSeconds outlasts preStop + BASTION_SHUTDOWN_GRACE_MS', async (t) => {
  for (const shutdown of [{}, { graceMs: 30_000 }, { graceMs: 1_500, preStopSleepSeconds: 0 }, { terminationGracePeriodSeconds: 90 }]) {
    for (const mode of ['sidecar', 'gateway']) {
      const objects = render({ mode, shutdown });
      const graceMs = Number((find(objects, 'ConfigMap', 'demo-bastion') as unknown as ConfigMap).data!.BASTION_SHUTDOWN_GRACE_MS);
      const d = deployment(objects.find((o) => o.kind === 'Deployment')!);
      const c = bastionOf(d);
      const preStop = Number(c.lifecycle?.preStop?.exec?.command?.[1] ?? 0);
      t.same(c.lifecycle?.preStop?.exec?.command?.[0], 'sleep');
      t.ok(d.spec!.template.spec!.terminationGracePeriodSeconds! > preStop + graceMs / 1000, `${mode} ${JSON.stringify(shutdown)}`);
    }
  }
  const tooShort = template({ mode: 'gateway', shutdown: { terminationGracePeriodSeconds: 12 } });
  t.match(tooShort.stderr, /terminationGracePeriodSeconds \(12\) must exceed/);
  const managed = template({ env: { BASTION_SHUTDOWN_GRACE_MS: '60000' } });
  t.match(managed.stderr, /env\.BASTION_SHUTDOWN_GRACE_MS is managed by the chart: set shutdown\.graceMs/);
});

t.test('values.schema.json rejects malformed values before anything renders', async (t) => {
  t.match(template({ mode: 'daemonset' }).stderr, /mode.*must be one of 'sidecar', 'gateway'/s);
  t.match(template({ mode: 'gateway', replicas: '3' }).stderr, /replicas.*want integer/s);
  t.match(template({ replica: 3 }).stderr, /additional properties 'replica' not allowed/);
  t.match(template({ database: { kind: 'mysql' } }).stderr, /database\/kind/);
  t.match(template({ env: { 'bastion-workers': '2' } }).stderr, /invalid propertyName 'bastion-workers'/);
  t.match(template({ securityContext: { runAsNonRoot: false } }).stderr, /runAsNonRoot/);
});

t.test('install notes tell the user where to point OPENAI_BASE_URL', async (t) => {
  const sidecar = notes({});
  t.match(sidecar, 'OPENAI_BASE_URL=http://127.0.0.1:8080/v1');
  t.notMatch(sidecar, /WARNING/, 'a default install generates its key');
  t.match(notes({ secrets: { generate: { enabled: false } } }), /WARNING: no bootstrap API key/, 'warns that Bastion will refuse to start');
  t.match(sidecar, 'include "bastion.sidecarContainer"');
  const gateway = notes({ mode: 'gateway', secrets: { values: { BASTION_API_KEYS: API_KEYS } } });
  t.match(gateway, 'http://demo-bastion.apps.svc:8080/v1');
  t.notMatch(gateway, /WARNING/);
  t.notOk(gateway.includes(API_KEYS), 'notes never print a secret');
});
