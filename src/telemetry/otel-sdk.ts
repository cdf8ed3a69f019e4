import { SpanKind, SpanStatusCode, context, trace, type Tracer } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { IncomingHttpHeaders } from 'node:http';
import { LAYER_NAMES } from './metrics.js';
import type { OtelSdk, RequestTrace } from './types.js';

const headerGetter = {
  keys: (carrier: IncomingHttpHeaders) => Object.keys(carrier),
  get: (carrier: IncomingHttpHeaders, key: string) => carrier[key],
};
const headerSetter = {
  set: (carrier: Record<string, string>, key: string, value: string) => {
    carrier[key] = value;
  },
};
const UPSTREAM_ERRORS = new Set(['BASTION_ERR_UPSTREAM_UNREACHABLE', 'BASTION_ERR_UPSTREAM_TIMEOUT']);

/**
 * The OpenTelemetry SDK of one gateway. Loaded only when tracing is on (tracing.ts imports this module dynamically).
 * The provider is not registered globally: spans are parented explicitly, so two gateways in one process (tests) and
 * an app's own OpenTelemetry set-up never interfere. The OTLP/HTTP (JSON) exporter reads the standard OTEL_EXPORTER_OTLP_*
 * variables itself (endpoint, headers, timeout); the batch processor reads OTEL_BSP_*.
 */
export async function createOtelSdk(env: NodeJS.ProcessEnv): Promise<OtelSdk> {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || 'bastion' }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  const tracer: Tracer = provider.getTracer('bastion');
  const propagator = new W3CTraceContextPropagator();

  const sdk: OtelSdk = {
    startRequest(method, headers, listener) {
      // An incoming traceparent (the app's own trace) becomes the parent; none starts a new trace.
      const parent = propagator.extract(context.active(), headers, headerGetter);
      const span = tracer.startSpan(method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': method, 'bastion.listener': listener } }, parent);
      return { sdk, method, span, ctx: trace.setSpan(parent, span) };
    },

    endRequest(t, outcome) {
      const { span } = t;
      // Route pattern only: the URL a client sent (path, query) may carry content and is never recorded.
      span.updateName(`${t.method} ${outcome.route}`);
      span.setAttributes({
        'http.route': outcome.route,
        'http.response.status_code': outcome.status,
        'bastion.request_id': outcome.requestId,
        'bastion.overhead_ms': Math.round(outcome.overheadMs * 1000) / 1000,
        ...(outcome.tenant ? { 'bastion.tenant': outcome.tenant } : {}),
        ...(outcome.errorCode ? { 'bastion.error_code': outcome.errorCode } : {}),
        ...(outcome.verdict ? { 'bastion.verdict': outcome.verdict } : {}),
      });
      if (outcome.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.errorCode ?? String(outcome.status) });
      if (t.upstream) {
        if (outcome.errorCode && UPSTREAM_ERRORS.has(outcome.errorCode)) t.upstream.setStatus({ code: SpanStatusCode.ERROR, message: outcome.errorCode });
        t.upstream.end(t.upstreamEnd);
      }
      span.end();
    },

    startUpstream(t) {
      t.upstream?.end(t.upstreamEnd);
      t.upstream = tracer.startSpan('bastion.upstream', { kind: SpanKind.CLIENT }, t.ctx);
      t.upstreamEnd = undefined;
      const headers: Record<string, string> = {};
      propagator.inject(trace.setSpan(t.ctx, t.upstream), headers, headerSetter);
      return headers;
    },

    recordInspection(t, startedAt, summary) {
      const attributes: Record<string, string | number | boolean> = {
        'bastion.items': summary.items,
        'bastion.cache_hits': summary.cacheHits,
        'bastion.action': summary.action,
        'bastion.risk_level': summary.riskLevel,
        'bastion.shadow_banned': summary.shadowBanned,
      };
      for (const [layer, ms] of Object.entries(summary.layersMs)) {
        if (LAYER_NAMES.has(layer)) attributes[`bastion.layer.${layer}_ms`] = ms;
      }
      tracer.startSpan('bastion.inspect', { kind: SpanKind.INTERNAL, startTime: startedAt, attributes }, t.ctx).end();
    },

    shutdown: () => provider.shutdown(),
  };
  return sdk;
}
