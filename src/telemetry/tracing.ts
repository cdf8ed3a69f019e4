import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../services.js';
import type { InspectionSummary, OtelSdk, RequestTrace } from './types.js';

/**
 * OpenTelemetry traces, on only when the standard OTEL_EXPORTER_OTLP_ENDPOINT (or ..._TRACES_ENDPOINT) is set and
 * OTEL_SDK_DISABLED / OTEL_TRACES_EXPORTER=none do not turn it off. When off, no OpenTelemetry module is ever loaded:
 * the SDK lives in otel-sdk.ts, imported dynamically here, and every hook below is skipped.
 */
export function tracingEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  if (String(env.OTEL_SDK_DISABLED).toLowerCase() === 'true') return false;
  if (String(env.OTEL_TRACES_EXPORTER).toLowerCase() === 'none') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

let loaded = false;
/** Whether this process ever loaded the OpenTelemetry SDK (tests prove it stays false when tracing is off). */
export function otelSdkLoaded(): boolean {
  return loaded;
}

interface GatewayTracing {
  sdk: OtelSdk;
  listeners: number;
}
const byServices = new WeakMap<Services, Promise<GatewayTracing>>();

function tracingOf(services: Services): Promise<GatewayTracing> {
  let tracing = byServices.get(services);
  if (!tracing) {
    loaded = true;
    tracing = import('./otel-sdk.js').then(async ({ createOtelSdk }) => ({ sdk: await createOtelSdk(process.env), listeners: 0 }));
    byServices.set(services, tracing);
  }
  return tracing;
}

/** A server span per request on this listener; the SDK is flushed when the last listener of the gateway closes. */
export async function registerTracing(app: FastifyInstance, listener: 'proxy' | 'admin'): Promise<void> {
  if (!tracingEnabled()) return;
  const tracing = await tracingOf(app.services);
  tracing.listeners++;
  const { sdk } = tracing;
  app.addHook('onRequest', async (request) => {
    request.trace = sdk.startRequest(request.method, request.headers, listener);
  });
  app.addHook('onResponse', async (request, reply) => {
    if (request.trace) sdk.endRequest(request.trace, describe(request, reply));
  });
  app.addHook('onClose', async () => {
    if (--tracing.listeners === 0) await sdk.shutdown();
  });
}

function describe(request: FastifyRequest, reply: FastifyReply) {
  return {
    route: request.is404 ? 'unmatched' : (request.routeOptions.url ?? 'unmatched'),
    status: reply.statusCode,
    requestId: request.id,
    tenant: request.principal?.tenantId,
    errorCode: request.errorCode,
    verdict: request.verdictSummary,
    overheadMs: Math.max(0, reply.elapsedTime - (request.upstreamMs ?? 0)),
  };
}

const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/**
 * Headers for an upstream call: starts the request's upstream span and returns its W3C `traceparent` (and
 * `tracestate`). Empty when tracing is off.
 */
export function traceHeaders(request: FastifyRequest): Record<string, string> {
  return request.trace ? request.trace.sdk.startUpstream(request.trace) : NO_HEADERS;
}

/** Marks when the upstream answered (headers, then body): the upstream span ends at the last mark. */
export function traceUpstreamMark(request: FastifyRequest): void {
  if (request.trace) request.trace.upstreamEnd = performance.timeOrigin + performance.now();
}

/** The inspection span, recorded once the verdicts are in: layer timings as attributes, never content. */
export function traceInspection(request: FastifyRequest, startedAt: number, summary: InspectionSummary): void {
  if (request.trace) request.trace.sdk.recordInspection(request.trace, startedAt, summary);
}

declare module 'fastify' {
  interface FastifyRequest {
    trace?: RequestTrace;
  }
}
