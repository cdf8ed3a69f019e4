import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { parse } from 'yaml';
import { metricsOf } from '../../src/telemetry/metrics.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { CHART, find, lint, template, type K8sObject } from './fixtures/helm.js';

interface Dashboard {
  panels: { title: string; targets: { expr: string }[] }[];
}
interface Rules {
  groups: { rules: { alert: string; expr: string }[] }[];
}

const dashboard = JSON.parse(readFileSync(join(CHART, 'files', 'grafana-dashboard.json'), 'utf8')) as Dashboard;
const rules = parse(readFileSync(join(CHART, 'files', 'prometheus-rules.yaml'), 'utf8')) as Rules;
const queries: [string, string][] = [
  ...dashboard.panels.flatMap((p) => p.targets.map((q) => [`panel "${p.title}"`, q.expr] as [string, string])),
  ...rules.groups.flatMap((g) => g.rules.map((r) => [`alert ${r.alert}`, r.expr] as [string, string])),
];
const HISTOGRAM_SUFFIX = /_(bucket|sum|count)$/;
// Words of PromQL that look like label names inside by (…) / without (…).
const GROUPING = /\b(?:by|without)\s*\(([^)]*)\)/g;
const MATCHERS = /(bastion_\w+)\{([^}]*)\}/g;

t.test('every series the Grafana dashboard and the alert rules query is one a running gateway serves on /metrics', async (t) => {
  const gw = await startTestGateway(t);
  const res = await call(`${gw.adminUrl}/metrics`);
  t.equal(res.status, 200);
  const families = new Map([...res.body.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1], m[2]]));
  const { registry } = metricsOf(gw.services);
  const labelsOf = (family: string): string[] => {
    const metric = registry.getSingleMetric(family) as unknown as { labelNames?: string[] } | undefined;
    return [...(metric?.labelNames ?? []), ...(families.get(family) === 'histogram' ? ['le'] : [])];
  };
  const familyOf = (series: string): string | undefined => {
    if (families.has(series)) return series;
    const base = series.replace(HISTOGRAM_SUFFIX, '');
    return base !== series && families.get(base) === 'histogram' ? base : undefined;
  };

  t.ok(queries.length >= 15, 'the dashboard and rules have queries to check');
  const covered = new Set<string>();
  for (const [where, expr] of queries) {
    const series = [...new Set(expr.match(/bastion_\w+/g) ?? [])];
    t.ok(series.length > 0, `${where} queries a Bastion series`);
    const used = series.map(familyOf);
    series.forEach((s, i) => t.ok(used[i], `${where}: ${s} is served on /metrics`));
    const known = new Set(used.flatMap((f) => (f ? labelsOf(f) : [])));
    for (const [, name, body] of expr.matchAll(MATCHERS)) {
      const family = familyOf(name);
      for (const [, label] of body.matchAll(/(\w+)\s*(?:=~|!~|!=|=)/g)) t.ok(family && labelsOf(family).includes(label), `${where}: ${name} has label ${label}`);
    }
    for (const [, list] of expr.matchAll(GROUPING)) {
      for (const label of list.split(',').map((l) => l.trim()).filter(Boolean)) t.ok(known.has(label), `${where}: grouping label ${label} exists`);
    }
    used.forEach((f) => f && covered.add(f));
  }
  for (const needed of ['bastion_http_requests_total', 'bastion_screened_total', 'bastion_gateway_overhead_seconds', 'bastion_inspection_layer_seconds', 'bastion_inspect_queue_depth', 'bastion_upstream_errors_total', 'bastion_fail_closed_total', 'bastion_mcp_messages_total']) {
    t.ok(covered.has(needed), `the kit covers ${needed}`);
  }
});

t.test('the chart ships both, off by default, as a dashboard ConfigMap and a PrometheusRule when enabled', async (t) => {
  const off = template({ mode: 'gateway' });
  t.equal(off.code, 0, off.stderr);
  t.notOk(off.objects.some((o) => o.kind === 'PrometheusRule' || o.metadata.name.endsWith('-dashboard')), 'nothing by default');
  const values = { mode: 'gateway', metrics: { grafanaDashboard: { enabled: true }, prometheusRule: { enabled: true, labels: { release: 'kube-prometheus' } } } };
  t.equal(lint(values).code, 0, 'helm lint --strict');
  const on = template(values);
  t.equal(on.code, 0, on.stderr);
  const cm = find(on.objects, 'ConfigMap', 'demo-bastion-dashboard') as K8sObject & { data: Record<string, string> };
  t.equal(cm.metadata.labels?.grafana_dashboard, '1', 'the label Grafana\'s sidecar selects');
  t.same(JSON.parse(cm.data['bastion.json']), dashboard, 'the dashboard JSON, whole');
  const rule = find(on.objects, 'PrometheusRule', 'demo-bastion') as K8sObject & { spec: Rules };
  t.equal(rule.metadata.labels?.release, 'kube-prometheus');
  t.same(rule.spec, rules, 'the rule file, whole (templating markers kept for Prometheus)');
});
