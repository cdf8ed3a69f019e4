import t from 'tap';
import { completion, fakeUpstream, sendJson } from '../helpers/fake-upstream.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { otelSdkLoaded, tracingEnabled } from '../../src/telemetry/tracing.js';

for (const name of Object.keys(process.env)) if (name.startsWith('OTEL_')) delete process.env[name];

t.test('without OTEL_EXPORTER_OTLP_ENDPOINT no OpenTelemetry module is loaded and nothing is added upstream', async (t) => {
  const upstream = await fakeUpstream(t);
  const gw = await startTestGateway(t, { config: { upstreamBaseUrl: upstream.url } });
  const key = await gw.key('acme', { rate: 1000 });
  upstream.on((_req, res) => sendJson(res, 200, completion({ content: 'hi' })));
  const res = await call(`${gw.proxyUrl}/v1/chat/completions`, { headers: { 'x-api-key': key }, body: { model: 'm', messages: [{ role: 'user', content: 'hello' }] } });
  t.equal(res.status, 200);
  t.notOk(upstream.received.at(-1)!.headers.traceparent, 'no traceparent is invented');
  t.equal(otelSdkLoaded(), false, 'the SDK was never imported');
});

t.test('the standard switches: an endpoint turns tracing on, OTEL_SDK_DISABLED or OTEL_TRACES_EXPORTER=none keep it off', async (t) => {
  t.equal(tracingEnabled({}), false);
  t.equal(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }), true);
  t.equal(tracingEnabled({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces' }), true);
  t.equal(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'true' }), false);
  t.equal(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_TRACES_EXPORTER: 'none' }), false);
});
