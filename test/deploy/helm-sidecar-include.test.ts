import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { Deployment } from 'kubernetes-models/apps/v1';
import type { ConfigMap } from 'kubernetes-models/v1';
import { CHART, find, kubectl, lint, template, tempFile } from './fixtures/helm.js';

// How a user adds Bastion to their own chart: bastion as a dependency, its named templates in their pod spec.
const PARENT_DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}-shop
spec:
  selector:
    matchLabels: { app: shop }
  template:
    metadata:
      labels: { app: shop }
    spec:
      containers:
        - name: shop
          image: example/shop:1.0
          env:
            - name: OPENAI_BASE_URL
              value: http://127.0.0.1:8080/v1
        {{- include "bastion.sidecarContainer" (dict "Values" .Values.bastion "Release" .Release) | nindent 8 }}
      volumes:
        {{- include "bastion.sidecarVolumes" (dict "Values" .Values.bastion "Release" .Release) | nindent 8 }}
`;

function parentChart(t: { teardown(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'bastion-parent-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(
    join(dir, 'Chart.yaml'),
    'apiVersion: v2\nname: shop\nversion: 1.0.0\nappVersion: "1.0"\ndependencies:\n  - name: bastion\n    version: 0.1.0\n    repository: file://../bastion\n',
  );
  // A vendored copy in charts/ is what `helm dependency build` would produce, without needing a repository.
  cpSync(CHART, join(dir, 'charts', 'bastion'), { recursive: true });
  mkdirSync(join(dir, 'templates'));
  writeFileSync(join(dir, 'templates', 'deployment.yaml'), PARENT_DEPLOYMENT);
  return dir;
}

t.test('bastion.sidecarContainer drops Bastion into a pod of your own chart', async (t) => {
  const chart = parentChart(t);
  const values = { bastion: { image: { tag: '7.9.0' }, sidecar: { demoApp: { enabled: false } }, secrets: { values: { BASTION_API_KEYS: 'shop:PLACEHOLDER-API-KEY-000000' } } } };
  const linted = lint(values, chart);
  t.equal(linted.code, 0, 'helm lint --strict passes for a chart that includes Bastion', { output: linted.stdout + linted.stderr });
  const res = template(values, chart, 'shop');
  t.equal(res.code, 0, res.stderr);
  const d = new Deployment(find(res.objects, 'Deployment', 'shop-shop') as never);
  t.doesNotThrow(() => d.validate());
  const spec = d.spec!.template.spec!;
  t.same(spec.containers.map((c) => c.name), ['shop', 'bastion']);
  const bastion = spec.containers[1]!;
  t.equal(bastion.image, 'ghcr.io/your-org/bastion:7.9.0');
  // The container refers to the ConfigMap and Secret the subchart renders in the same release.
  const cmName = bastion.envFrom![0]!.configMapRef!.name;
  t.ok(find(res.objects, 'ConfigMap', cmName!));
  t.ok(find(res.objects, 'Secret', bastion.envFrom![1]!.secretRef!.name!));
  t.same(spec.volumes!.map((v) => v.name).sort(), ['bastion-data', 'bastion-tmp']);

  const untagged = template({ bastion: { sidecar: { demoApp: { enabled: false } } } }, chart, 'shop');
  t.match(untagged.stderr, /bastion: set image\.tag/, "the parent's appVersion is never mistaken for Bastion's");
  const broken = template({ bastion: { image: { tag: '7.9.0' }, env: { REDIS_URL: 'redis://x' } } }, chart, 'shop');
  t.match(broken.stderr, /env\.REDIS_URL would put a secret into a ConfigMap/, 'the include runs the same checks');
});

// The user's Deployment before the patch: its own env and volumes must survive.
const MY_APP = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'my-app' },
  spec: {
    selector: { matchLabels: { app: 'my-app' } },
    template: {
      metadata: { labels: { app: 'my-app' } },
      spec: {
        containers: [{ name: 'web', image: 'example/web:2', env: [{ name: 'LOG_LEVEL', value: 'debug' }] }],
        volumes: [{ name: 'cache', emptyDir: {} }],
      },
    },
  },
};

t.test('the sidecar patch turns an existing Deployment into app + Bastion (kubectl patch --local)', async (t) => {
  const appFile = tempFile(MY_APP);
  for (const native of [false, true]) {
    const res = template({ sidecar: { native, appContainerName: 'web' }, shutdown: { graceMs: 40_000 } });
    t.equal(res.code, 0, res.stderr);
    const cm = find(res.objects, 'ConfigMap', 'demo-bastion-sidecar-patch') as unknown as ConfigMap;
    // Exactly what the documented command passes: the patch.yaml text, strategic merge (kubectl's default).
    const patched = kubectl(['patch', '--local', '-f', appFile, '--type', 'strategic', '--patch', cm.data!['patch.yaml']!, '-o', 'json']);
    t.equal(patched.code, 0, `native=${native}: kubectl patch applies`, { stderr: patched.stderr });
    const d = new Deployment(JSON.parse(patched.stdout) as never);
    t.doesNotThrow(() => d.validate(), `native=${native}: patched Deployment is valid`);
    const spec = d.spec!.template.spec!;
    const web = spec.containers.find((c) => c.name === 'web')!;
    t.equal(web.image, 'example/web:2', 'the app keeps its image');
    t.same(web.env?.map((e) => [e.name, e.value]).sort(), [['LOG_LEVEL', 'debug'], ['OPENAI_BASE_URL', 'http://127.0.0.1:8080/v1']]);
    const where = native ? spec.initContainers : spec.containers;
    t.equal(where?.find((c) => c.name === 'bastion')?.image, 'ghcr.io/your-org/bastion:7.9.0', `native=${native}: bastion added`);
    t.same(spec.volumes!.map((v) => v.name).sort(), ['bastion-data', 'bastion-tmp', 'cache']);
    t.ok(spec.terminationGracePeriodSeconds! > 40 + 5, 'a long drain raises the 30 s default grace period');
  }
});
