import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import taxonomy from '../../config/taxonomy.json' with { type: 'json' };
import { KINDS, LAYER_NAMES as PIPELINE_LAYERS, RISK_LEVELS } from '../inspect/types.js';
import type { Services } from '../services.js';
import { activeFingerprint } from '../storage/evolved-rules.js';

/**
 * Prometheus instruments of one gateway (its own Registry, so two gateways in one process never share counts).
 * Every label value comes from a closed set (route patterns, catalogue codes, verdict enums, layer names) or from the
 * tenant id when BASTION_METRICS_TENANT_LABEL is on: nothing of a request's content or raw URL is ever a label.
 */
export interface Metrics {
  readonly registry: Registry;
  readonly requests: Counter<'listener' | 'method' | 'route' | 'status'>;
  readonly overhead: Histogram<'listener' | 'route'>;
  readonly upstream: Histogram<'route'>;
  readonly verdicts: Counter<'kind' | 'action' | 'risk_level' | 'tenant'>;
  /** Texts the transformer model stage scored, by its verdict and what the cascade did with it. */
  readonly model: Counter<'verdict' | 'effect'>;
  /** Texts put to the LLM judge and what became of them (src/judge/ledger.ts: asked = answered + no_opinion). */
  readonly judge: {
    asked: Counter<'tenant'>;
    answered: Counter<'tenant'>;
    noOpinion: Counter<'cause' | 'tenant'>;
    addedBlock: Counter<'tenant'>;
  };
  /** Harmful requests and jailbreak framings the harmful-intent judge reported (flag type, harm family, action). */
  readonly harmful: Counter<'type' | 'family' | 'action' | 'tenant'>;
  readonly layers: Histogram<'layer'>;
  readonly shadowBanned: Counter<'tenant'>;
  readonly refusals: Counter<'reason' | 'tenant'>;
  readonly upstreamErrors: Counter<'route' | 'code'>;
  /** Answers that refused rather than pass unjudged: overload, inspection deadline or failure, limiter or storage down. */
  readonly failClosed: Counter<'code'>;
  /** Screened requests (a /filter item or one guarded exchange), by the guard point that decided, action and threat category. */
  readonly screened: Counter<'point' | 'action' | 'family' | 'tenant'>;
  /** Tool results forwarded with the segments holding an injection replaced by a marker, by guard point and outcome. */
  readonly quarantined: Counter<'point' | 'outcome'>;
  /** MCP proxy: messages by server, method and outcome (allowed, blocked, redacted, withheld). */
  readonly mcpMessages: Counter<'server' | 'method' | 'outcome'>;
  /** The label of a registered MCP server's name: the first MCP_SERVER_LABELS names seen, then `other`. */
  mcpServerLabel(name: string): string;
  readonly tenantLabel: boolean;
}

/** Server names are chosen by tenants: only this many distinct ones become label values. */
export const MCP_SERVER_LABELS = 100;

// Latency buckets in seconds: gateway overhead lives in 0.1–50 ms, upstream calls in 50 ms–minutes.
const OVERHEAD_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const UPSTREAM_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
const LAYER_BUCKETS = [0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.1];

/** Threat categories of config/taxonomy.json: the `family` label of a block is its verdict's category, else `other`. */
const FAMILY_LABELS: ReadonlySet<string> = new Set(Object.keys(taxonomy.categories));

/** The metric label of a block's threat family (`category/leaf`): its category, `other` when unknown, `none` without one. */
export function familyLabel(family: string | undefined): string {
  if (!family) return 'none';
  const category = family.split('/', 1)[0];
  return FAMILY_LABELS.has(category) ? category : 'other';
}

/** The layer names a verdict's timings_ms may carry; anything else is not observed (bounded label set). */
export const LAYER_NAMES: ReadonlySet<string> = new Set([...PIPELINE_LAYERS, 'model', 'judge', 'rules', 'total']);
export const KIND_NAMES: ReadonlySet<string> = new Set(KINDS);
export const RISK_NAMES: ReadonlySet<string> = new Set(RISK_LEVELS);

// A scrape never waits long on a dependency: an answer later than this counts as down.
const HEALTH_TIMEOUT_MS = 1000;

const byServices = new WeakMap<Services, Metrics>();

/** The metrics of this gateway, created on first use. */
export function metricsOf(services: Services): Metrics {
  let metrics = byServices.get(services);
  if (!metrics) {
    metrics = createMetrics(services);
    byServices.set(services, metrics);
  }
  return metrics;
}

function createMetrics(services: Services): Metrics {
  const registry = new Registry();
  const registers = [registry];
  const tenantLabel = services.config.metricsTenantLabel === true;
  const tenantLabels = tenantLabel ? (['tenant'] as const) : ([] as const);
  const serverLabels = new Set<string>();
  const metrics: Metrics = {
    registry,
    tenantLabel,
    requests: new Counter({
      name: 'bastion_http_requests_total',
      help: 'Requests answered, by listener, method, route pattern (never the raw path) and status',
      labelNames: ['listener', 'method', 'route', 'status'],
      registers,
    }),
    overhead: new Histogram({
      name: 'bastion_gateway_overhead_seconds',
      help: "Bastion's own time per request (total minus time waiting on the upstream)",
      labelNames: ['listener', 'route'],
      buckets: OVERHEAD_BUCKETS,
      registers,
    }),
    upstream: new Histogram({
      name: 'bastion_upstream_duration_seconds',
      help: 'Time spent waiting on the upstream model provider, per request that called one',
      labelNames: ['route'],
      buckets: UPSTREAM_BUCKETS,
      registers,
    }),
    verdicts: new Counter({
      name: 'bastion_verdicts_total',
      help: 'Inspection verdicts by kind, action and risk level',
      labelNames: ['kind', 'action', 'risk_level', ...tenantLabels],
      registers,
    }),
    model: new Counter({
      name: 'bastion_model_verdicts_total',
      help: 'Texts the transformer model stage scored, by its verdict (attack, benign) and effect on the final verdict (raised, cleared, none)',
      labelNames: ['verdict', 'effect'],
      registers,
    }),
    judge: {
      asked: new Counter({ name: 'bastion_judge_asked_total', help: 'Texts in the uncertain band put to the LLM judge', labelNames: [...tenantLabels], registers }),
      answered: new Counter({ name: 'bastion_judge_answered_total', help: 'Texts the LLM judge gave an opinion on (cached answers included)', labelNames: [...tenantLabels], registers }),
      noOpinion: new Counter({
        name: 'bastion_judge_no_opinion_total',
        help: 'Texts the LLM judge gave no opinion on, by cause (timeout, error, unreadable, busy, rate_limited, budget_exhausted, budget_unavailable): the embedded verdict stood',
        labelNames: ['cause', ...tenantLabels],
        registers,
      }),
      addedBlock: new Counter({ name: 'bastion_judge_added_block_total', help: 'Allowed verdicts the LLM judge turned into blocks', labelNames: [...tenantLabels], registers }),
    },
    harmful: new Counter({
      name: 'bastion_harmful_intent_total',
      help: 'Prompts the harmful-intent judge reported: type harmful_request (under the tenant policy harmful_content) or jailbreak, the harm family, and the action taken',
      labelNames: ['type', 'family', 'action', ...tenantLabels],
      registers,
    }),
    layers: new Histogram({
      name: 'bastion_inspection_layer_seconds',
      help: 'Time per inspection layer (and `total`) of verdicts computed by the pool (cache hits excluded)',
      labelNames: ['layer'],
      buckets: LAYER_BUCKETS,
      registers,
    }),
    shadowBanned: new Counter({
      name: 'bastion_shadow_banned_requests_total',
      help: 'Inspected requests whose entity was shadow-banned (ERS) when judged',
      labelNames: [...tenantLabels],
      registers,
    }),
    refusals: new Counter({
      name: 'bastion_limit_refusals_total',
      help: 'Requests refused by a limit: reason rate_limited (per-minute window) or quota_exceeded (monthly quota)',
      labelNames: ['reason', ...tenantLabels],
      registers,
    }),
    upstreamErrors: new Counter({
      name: 'bastion_upstream_errors_total',
      help: 'Upstream calls that failed: code UPSTREAM_UNREACHABLE (502) or UPSTREAM_TIMEOUT (504)',
      labelNames: ['route', 'code'],
      registers,
    }),
    failClosed: new Counter({
      name: 'bastion_fail_closed_total',
      help: 'Requests answered with a fail-closed error instead of a verdict: code OVERLOADED (503), INSPECTION_TIMEOUT (504), INSPECTION_FAILED (500), LIMITER_UNAVAILABLE (503), STORAGE_UNAVAILABLE (503)',
      labelNames: ['code'],
      registers,
    }),
    screened: new Counter({
      name: 'bastion_screened_total',
      help: 'Screened requests, each counted once: a /filter item (point filter) or one guarded chat, Responses, Messages, embeddings or MCP exchange, by the guard point that decided (request, response, stream, mcp_call, mcp_result), the final action and the threat category of a block (none otherwise); the portal counts the same',
      labelNames: ['point', 'action', 'family', ...tenantLabels],
      registers,
    }),
    quarantined: new Counter({
      name: 'bastion_quarantined_results_total',
      help: 'Tool results holding an injection, by guard point (request, mcp_result) and outcome: quarantined (the segments replaced by a marker, the rest forwarded) or blocked (not confined to segments, or the policy tool_result_injection is block)',
      labelNames: ['point', 'outcome'],
      registers,
    }),
    mcpMessages: new Counter({
      name: 'bastion_mcp_messages_total',
      help: 'MCP proxy messages judged, by upstream server name, method and outcome (allowed, blocked, redacted, withheld)',
      labelNames: ['server', 'method', 'outcome'],
      registers,
    }),
    mcpServerLabel(name) {
      if (serverLabels.has(name)) return name;
      if (serverLabels.size >= MCP_SERVER_LABELS) return 'other';
      serverLabels.add(name);
      return name;
    },
  };
  registerScrapeGauges(services, registry);
  return metrics;
}

/** Gauges read at scrape time: the worker pool, evolved rules and the health of storage and Redis. */
function registerScrapeGauges(services: Services, registry: Registry): void {
  const registers = [registry];
  const { inspector } = services;
  new Gauge({
    name: 'bastion_inspect_queue_depth',
    help: 'Inspection tasks waiting for a worker thread',
    registers,
    collect() {
      this.set(inspector.counts().queued);
    },
  });
  new Gauge({
    name: 'bastion_inspect_pool_utilisation',
    help: 'Share of worker threads running an inspection (0–1)',
    registers,
    collect() {
      this.set(inspector.threads > 0 ? Math.min(1, inspector.counts().running / inspector.threads) : 0);
    },
  });
  new Gauge({
    name: 'bastion_inspect_pool_threads',
    help: 'Inspection worker threads',
    registers,
    collect() {
      this.set(inspector.threads);
    },
  });
  new Gauge({
    name: 'bastion_evolved_rules_active',
    help: 'Evolved detection rules currently active (-1: the store did not answer)',
    registers,
    async collect() {
      const fingerprint = await withTimeout(activeFingerprint(services.storage.db)).catch(() => undefined);
      this.set(fingerprint === undefined ? -1 : Number(fingerprint.split(':')[0]));
    },
  });
  new Gauge({
    name: 'bastion_dependency_up',
    help: 'Whether a dependency answered a ping at scrape time (1) or not (0): storage always, redis when configured',
    labelNames: ['dependency'],
    registers,
    async collect() {
      const { storage, redis } = services;
      this.set({ dependency: 'storage' }, await up(storage.ping()));
      if (redis) this.set({ dependency: 'redis' }, await up(redis.ping()));
    },
  });
}

async function up(ping: Promise<unknown>): Promise<number> {
  return withTimeout(ping).then(() => 1, () => 0);
}

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), HEALTH_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
