import t from 'tap';
import { find, lint, template, type K8sObject } from './fixtures/helm.js';

const gateway = { mode: 'gateway' };
const monitored = { ...gateway, metrics: { serviceMonitor: { enabled: true, interval: '15s', labels: { release: 'kube-prometheus' }, bearerTokenSecret: { name: 'bastion-metrics', key: 'BASTION_METRICS_TOKEN' } } } };

function render(values: object): K8sObject[] {
  const res = template(values);
  if (res.code !== 0) throw new Error(`helm template failed: ${res.stderr}`);
  return res.objects;
}
const podAnnotations = (o: K8sObject) => (o as unknown as { spec: { template: { metadata: { annotations?: Record<string, string> } } } }).spec.template.metadata.annotations ?? {};

t.test('off by default: no ServiceMonitor; scrape annotations only where the admin port is on the pod IP', async (t) => {
  const sidecar = render({});
  t.notOk(sidecar.some((o) => o.kind === 'ServiceMonitor'));
  t.notOk(podAnnotations(find(sidecar, 'Deployment', 'demo-bastion-demo'))['prometheus.io/scrape'], 'a loopback admin listener cannot be scraped');
  const exposed = render({ sidecar: { exposeAdmin: true } });
  t.equal(podAnnotations(find(exposed, 'Deployment', 'demo-bastion-demo'))['prometheus.io/scrape'], 'true', 'sidecar.exposeAdmin makes it scrapable');
  const gw = render(gateway);
  t.notOk(gw.some((o) => o.kind === 'ServiceMonitor'));
  t.match(podAnnotations(find(gw, 'Deployment', 'demo-bastion')), { 'prometheus.io/scrape': 'true', 'prometheus.io/port': '8081', 'prometheus.io/path': '/metrics' });
  t.notOk(podAnnotations(find(render({ ...gateway, metrics: { scrapeAnnotations: false } }), 'Deployment', 'demo-bastion'))['prometheus.io/scrape'], 'annotations can be turned off');
});

t.test('enabled: a ServiceMonitor on the -admin Service only, /metrics on the admin port, with the bearer secret', async (t) => {
  t.equal(lint(monitored).code, 0, 'helm lint --strict');
  const objects = render(monitored);
  const sm = find(objects, 'ServiceMonitor', 'demo-bastion') as K8sObject & {
    spec: { selector: { matchLabels: Record<string, string> }; namespaceSelector: { matchNames: string[] }; endpoints: Record<string, unknown>[] };
  };
  t.equal(sm.apiVersion, 'monitoring.coreos.com/v1');
  t.equal(sm.metadata.labels?.release, 'kube-prometheus', 'extra labels for the Prometheus selector');
  t.same(sm.spec.namespaceSelector.matchNames, ['apps']);
  t.same(sm.spec.endpoints, [{ port: 'admin', path: '/metrics', interval: '15s', scrapeTimeout: '10s', bearerTokenSecret: { name: 'bastion-metrics', key: 'BASTION_METRICS_TOKEN' } }]);
  const selects = (o: K8sObject) => Object.entries(sm.spec.selector.matchLabels).every(([k, v]) => o.metadata.labels?.[k] === v);
  const services = objects.filter((o) => o.kind === 'Service');
  t.same(services.filter(selects).map((s) => s.metadata.name), ['demo-bastion-admin'], 'selects the admin Service, not the data Service');
  const admin = find(objects, 'Service', 'demo-bastion-admin') as K8sObject & { spec: { ports: { name: string }[] } };
  t.ok(admin.spec.ports.some((p) => p.name === 'admin'), 'the endpoint port name exists on that Service');
});

t.test('refused where Prometheus could not reach the admin listener, and malformed values are refused', async (t) => {
  const res = template({ metrics: { serviceMonitor: { enabled: true } } });
  t.not(res.code, 0);
  t.match(res.stderr, /needs the -admin Service/);
  t.not(template({ ...gateway, metrics: { serviceMonitor: { enabled: true, interval: 'every 30 seconds' } } }).code, 0, 'values.schema.json checks the interval');
});
