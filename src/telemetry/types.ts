import type { Context, Span } from '@opentelemetry/api';
import type { IncomingHttpHeaders } from 'node:http';

// The shapes tracing.ts (always loaded) and otel-sdk.ts (loaded only when tracing is on) share: here, so neither
// imports the other for a type and the SDK stays a one-way dynamic import.

export interface RequestTrace {
  sdk: OtelSdk;
  method: string;
  span: Span;
  ctx: Context;
  upstream?: Span;
  upstreamEnd?: number;
}

export interface RequestOutcome {
  route: string;
  status: number;
  requestId: string;
  tenant?: string;
  errorCode?: string;
  verdict?: string;
  overheadMs: number;
}

export interface OtelSdk {
  startRequest(method: string, headers: IncomingHttpHeaders, listener: string): RequestTrace;
  endRequest(trace: RequestTrace, outcome: RequestOutcome): void;
  startUpstream(trace: RequestTrace): Record<string, string>;
  recordInspection(trace: RequestTrace, startedAt: number, summary: InspectionSummary): void;
  shutdown(): Promise<void>;
}

export interface InspectionSummary {
  items: number;
  cacheHits: number;
  action: string;
  riskLevel: string;
  shadowBanned: boolean;
  /** Layer name → milliseconds, summed over the items. */
  layersMs: Record<string, number>;
}
