import t from 'tap';
import { completion, fakeUpstream, sendJson } from '../helpers/fake-upstream.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { otlpCollector, type ReceivedSpan } from '../helpers/otlp-collector.js';

const CANARY = 'qwzcanary';
const SERVER = 1 + 1; // OTLP SpanKind: 1 internal, 2 server, 3 client
const CLIENT = 3;
const INTERNAL = 1;
const STATUS_ERROR = 2;

t.test('with OTEL_EXPORTER_OTLP_ENDPOINT set, each request is a trace the collector receives', async (t) => {
  const collector = await otlpCollector(t);
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = collector.url;
  process.env.OTEL_BSP_SCHEDULE_DELAY = '20';
  process.env.OTEL_SERVICE_NAME = 'bastion-test';
  t.teardown(() => {
    delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  });
  const upstream = await fakeUpstream(t);
  const gw = await startTestGateway(t, { config: { upstreamBaseUrl: upstream.url, upstreamHeadersTimeoutMs: 300 } });
  const key = await gw.key('acme', { rate: 1000 });
  const h = { 'x-api-key': key };
  const byRequestId = (id: string) => (spans: ReceivedSpan[]) => spans.find((s) => s.attributes['bastion.request_id'] === id);
  const childrenOf = (server: ReceivedSpan) => collector.spans.filter((s) => s.parentSpanId === server.spanId);

  t.test('a chat completion: server span, inspection child with layer timings, upstream child whose traceparent the upstream received', async (t) => {
    upstream.on((_req, res) => sendJson(res, 200, completion({ content: `Paris ${CANARY}` })));
    const res = await call(`${gw.proxyUrl}/v1/chat/completions`, { headers: h, body: { model: 'm', messages: [{ role: 'user', content: `capital? ${CANARY}` }] } });
    t.equal(res.status, 200);
    const id = res.headers['x-request-id'];
    await collector.until((spans) => {
      const server = byRequestId(id)(spans);
      return Boolean(server && spans.filter((s) => s.parentSpanId === server.spanId).length >= 2);
    });
    const server = byRequestId(id)(collector.spans)!;
    t.equal(server.name, 'POST /v1/chat/completions', 'named by method and route pattern');
    t.equal(server.kind, SERVER);
    t.equal(server.service, 'bastion-test', 'OTEL_SERVICE_NAME names the service');
    t.match(server.attributes, { 'http.route': '/v1/chat/completions', 'http.response.status_code': 200, 'bastion.listener': 'proxy', 'bastion.tenant': 'acme' });
    const children = childrenOf(server);
    const inspections = children.filter((s) => s.name === 'bastion.inspect');
    t.ok(inspections.length >= 1, 'the prompt inspection is a span');
    for (const span of inspections) {
      t.equal(span.kind, INTERNAL);
      t.equal(span.traceId, server.traceId);
      t.type(span.attributes['bastion.layer.total_ms'], 'number', 'layer timings are attributes');
      t.type(span.attributes['bastion.layer.secrets_ms'], 'number');
      t.match(span.attributes, { 'bastion.items': 1, 'bastion.cache_hits': 0, 'bastion.action': 'allow', 'bastion.risk_level': /^(LOW|MEDIUM)$/ });
    }
    const upstreamSpan = children.find((s) => s.name === 'bastion.upstream')!;
    t.equal(upstreamSpan.kind, CLIENT);
    t.equal(upstream.received.at(-1)!.headers.traceparent, `00-${server.traceId}-${upstreamSpan.spanId}-01`, 'W3C traceparent names the upstream span');
  });

  t.test("the app's own traceparent becomes the parent of Bastion's server span", async (t) => {
    const appTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
    const appSpan = '00f067aa0ba902b7';
    const res = await call(`${gw.proxyUrl}/filter`, { headers: { ...h, traceparent: `00-${appTrace}-${appSpan}-01` }, body: { content: 'hello' } });
    await collector.until((spans) => Boolean(byRequestId(res.headers['x-request-id'])(spans)));
    const server = byRequestId(res.headers['x-request-id'])(collector.spans)!;
    t.equal(server.traceId, appTrace);
    t.equal(server.parentSpanId, appSpan);
  });

  t.test('a failed upstream call is an error span; raw paths and content never reach the collector', async (t) => {
    upstream.on((_req, res) => {
      res.socket!.destroy();
    });
    const res = await call(`${gw.proxyUrl}/v1/chat/completions?${CANARY}=1`, { headers: h, body: { model: 'm', messages: [{ role: 'user', content: `again ${CANARY}` }] } });
    t.equal(res.status, 502);
    const missing = await call(`${gw.proxyUrl}/v1/${CANARY}/x`, { headers: h });
    t.equal(missing.status, 404);
    const admin = await call(`${gw.adminUrl}/livez`);
    await collector.until((spans) => [res, missing, admin].every((r) => byRequestId(r.headers['x-request-id'])(spans)));
    const server = byRequestId(res.headers['x-request-id'])(collector.spans)!;
    t.equal(server.status?.code, STATUS_ERROR);
    t.equal(server.attributes['bastion.error_code'], 'BASTION_ERR_UPSTREAM_UNREACHABLE');
    await collector.until((spans) => spans.some((s) => s.parentSpanId === server.spanId && s.name === 'bastion.upstream'));
    const upstreamSpan = childrenOf(server).find((s) => s.name === 'bastion.upstream')!;
    t.equal(upstreamSpan.status?.code, STATUS_ERROR);
    t.equal(byRequestId(missing.headers['x-request-id'])(collector.spans)!.name, 'GET unmatched');
    t.equal(byRequestId(admin.headers['x-request-id'])(collector.spans)!.attributes['bastion.listener'], 'admin', 'the admin listener is traced too');
    const exported = collector.bodies.join('\n');
    t.notMatch(exported, new RegExp(CANARY, 'i'), 'no content, query or raw path in any export');
    t.notMatch(exported, /capital|Paris/);
    t.notMatch(exported, new RegExp(key.slice(0, 12)), 'no key material');
  });
});
