import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorCode } from '../errors.js';
import harmWeights from '../../config/concepts/weights.json' with { type: 'json' };
import type { Kind, Verdict } from '../inspect/types.js';
import type { JudgeOutcome } from '../judge/ledger.js';
import { KIND_NAMES, LAYER_NAMES, RISK_NAMES, metricsOf } from './metrics.js';
import { traceInspection } from './tracing.js';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const RATE_LIMITED = errorCode('RATE_LIMITED');
const QUOTA_EXCEEDED = errorCode('QUOTA_EXCEEDED');
// What a fail-closed answer is: the content was not judged, so nothing passed (docs/ARCHITECTURE.md, Failure behaviour).
const FAIL_CLOSED: ReadonlyMap<string, string> = new Map(
  (['OVERLOADED', 'INSPECTION_TIMEOUT', 'INSPECTION_FAILED', 'LIMITER_UNAVAILABLE', 'STORAGE_UNAVAILABLE'] as const).map((name) => [errorCode(name), name]),
);
const UPSTREAM_CODES: ReadonlyMap<string, string> = new Map([
  [errorCode('UPSTREAM_UNREACHABLE'), 'UPSTREAM_UNREACHABLE'],
  [errorCode('UPSTREAM_TIMEOUT'), 'UPSTREAM_TIMEOUT'],
]);

/**
 * onResponse metrics of one listener: request count, overhead and upstream latency, limit refusals and upstream errors.
 * Labels are the route pattern Fastify matched (`unmatched` for a 404), never the URL a client sent.
 */
export function registerRequestMetrics(app: FastifyInstance, listener: 'proxy' | 'admin'): void {
  // BASTION_METRICS=false: nothing is recorded, not just not served.
  if (!app.services.config.metricsEnabled) return;
  // The label sets known in advance start at 0, so a dashboard panel reads 0 before the first refusal, not "No data".
  const known = metricsOf(app.services);
  for (const code of FAIL_CLOSED.values()) known.failClosed.inc({ code }, 0);
  if (!known.tenantLabel) for (const reason of ['rate_limited', 'quota_exceeded']) known.refusals.inc({ reason }, 0);
  // The routes that call an upstream (every /v1 route and the MCP proxy), each with both upstream error codes.
  if (listener === 'proxy') {
    app.addHook('onRoute', ({ url }) => {
      if (!url.startsWith('/v1/') && url !== '/mcp/servers/:name') return;
      for (const code of UPSTREAM_CODES.values()) known.upstreamErrors.inc({ route: url, code }, 0);
    });
  }
  app.addHook('onResponse', (request, reply, done) => {
    const metrics = metricsOf(app.services);
    const route = request.is404 ? 'unmatched' : (request.routeOptions.url ?? 'unmatched');
    const method = METHODS.has(request.method) ? request.method : 'OTHER';
    metrics.requests.inc({ listener, method, route, status: String(reply.statusCode) });
    const upstreamMs = request.upstreamMs;
    metrics.overhead.observe({ listener, route }, Math.max(0, reply.elapsedTime - (upstreamMs ?? 0)) / 1000);
    if (upstreamMs !== undefined) metrics.upstream.observe({ route }, upstreamMs / 1000);
    const code = request.errorCode;
    if (code === RATE_LIMITED || code === QUOTA_EXCEEDED) {
      metrics.refusals.inc({ reason: code === RATE_LIMITED ? 'rate_limited' : 'quota_exceeded', ...tenantOf(request, metrics.tenantLabel) });
    }
    const upstreamCode = code && UPSTREAM_CODES.get(code);
    if (upstreamCode) metrics.upstreamErrors.inc({ route, code: upstreamCode });
    const failClosed = code && FAIL_CLOSED.get(code);
    if (failClosed) metrics.failClosed.inc({ code: failClosed });
    done();
  });
}

/**
 * Verdict metrics and the inspection span, called by judge() once the verdicts are in (`startedAt`: epoch ms when the
 * inspection began): enums and layer timings only, never content.
 */
export function observeVerdicts(request: FastifyRequest, kinds: readonly Kind[], verdicts: readonly Verdict[], shadowBanned: boolean, startedAt: number): void {
  if (request.trace) traceInspection(request, startedAt, summarise(verdicts, shadowBanned));
  if (!request.server.services.config.metricsEnabled) return;
  const metrics = metricsOf(request.server.services);
  const tenant = tenantOf(request, metrics.tenantLabel);
  verdicts.forEach((verdict, i) => {
    const kind = KIND_NAMES.has(kinds[i]) ? kinds[i] : 'prompt';
    const risk = RISK_NAMES.has(verdict.risk_level) ? verdict.risk_level : 'BLOCK';
    metrics.verdicts.inc({ kind, action: verdict.action, risk_level: risk, ...tenant });
    for (const flag of verdict.flags) {
      if (flag.type !== 'harmful_request' && flag.type !== 'jailbreak') continue;
      metrics.harmful.inc({ type: flag.type, family: harmFamilyLabel(verdict.threat_family), action: verdict.action, ...tenant });
    }
    // Cache hits carry `cache: 0` and no layer timings: only verdicts the pool computed feed the layer histograms.
    if ('cache' in verdict.timings_ms) return;
    const model = verdict.layers?.model;
    if (model) metrics.model.inc({ verdict: model.verdict === 'attack' ? 'attack' : 'benign', effect: model.effect === 'raised' || model.effect === 'cleared' ? model.effect : 'none' });
    for (const [layer, ms] of Object.entries(verdict.timings_ms)) {
      if (LAYER_NAMES.has(layer) && Number.isFinite(ms)) metrics.layers.observe({ layer }, ms / 1000);
    }
  });
  if (shadowBanned) metrics.shadowBanned.inc(tenant, verdicts.length);
}

/** One text put to the LLM judge: asked, and answered (maybe adding a block) or no opinion by cause. */
export function observeJudge(request: FastifyRequest, outcome: JudgeOutcome): void {
  if (!request.server.services.config.metricsEnabled) return;
  const { judge, tenantLabel } = metricsOf(request.server.services);
  const tenant = tenantOf(request, tenantLabel);
  judge.asked.inc(tenant);
  if (!outcome.answered) return void judge.noOpinion.inc({ cause: outcome.cause, ...tenant });
  judge.answered.inc(tenant);
  if (outcome.addedBlock) judge.addedBlock.inc(tenant);
}

// From the config, not the judge's module: the main thread never loads the lexicons' automaton.
const HARM_LABELS = new Set(Object.keys(harmWeights.familyLabels));

/** The harm family of a verdict as a bounded label value (`other` when the top flag named none of the taxonomy). */
function harmFamilyLabel(threatFamily: string | undefined): string {
  const family = threatFamily?.startsWith('harmful_content/') ? threatFamily.slice('harmful_content/'.length) : '';
  return HARM_LABELS.has(family) ? family : 'other';
}

const ACTION_ORDER = ['allow', 'redact', 'block'];
const RISK_ORDER = ['LOW', 'MEDIUM', 'HIGH', 'BLOCK'];

/** The worst action and risk over the items, cache hits, and each layer's time summed over the items. */
function summarise(verdicts: readonly Verdict[], shadowBanned: boolean) {
  const layersMs: Record<string, number> = {};
  let cacheHits = 0;
  let action = 0;
  let risk = 0;
  for (const v of verdicts) {
    action = Math.max(action, ACTION_ORDER.indexOf(v.action));
    risk = Math.max(risk, RISK_ORDER.indexOf(v.risk_level));
    if ('cache' in v.timings_ms) {
      cacheHits++;
      continue;
    }
    for (const [layer, ms] of Object.entries(v.timings_ms)) layersMs[layer] = Math.round(((layersMs[layer] ?? 0) + ms) * 1000) / 1000;
  }
  return { items: verdicts.length, cacheHits, action: ACTION_ORDER[action], riskLevel: RISK_ORDER[risk], shadowBanned, layersMs };
}

function tenantOf(request: FastifyRequest, enabled: boolean): { tenant?: string } {
  if (!enabled) return {};
  return { tenant: request.principal?.tenantId ?? 'none' };
}
