import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import config from '../../config/evolution.json' with { type: 'json' };
import decision from '../../config/decision.json' with { type: 'json' };
import { ConfigError, type Config } from '../config/schema.js';
import { EVOLVED_RULE } from '../inspect/rules/apply.js';
import type { Kind, Verdict } from '../inspect/types.js';
import { Upstream } from '../upstream/client.js';
import type { Broadcast } from '../redis/broadcast.js';
import type { Database } from '../storage/schema.js';
import type { Inspector } from '../workers/pool.js';
import type { VerdictCache } from '../workers/verdict-cache.js';
import { ActiveRules } from './active-rules.js';
import { AllowedShapes } from './allowed-shapes.js';
import { independentEvidence } from './evidence.js';
import { createAnalysisPool } from './analysis-pool.js';
import { memoryAttribution, redisAttribution } from './attribution.js';
import { memoryBudget, redisBudget } from './budget.js';
import { contentHash, redactForAnalysis } from './content.js';
import { handleFeedback, type FeedbackAnswer, type FeedbackBody } from './feedback.js';
import { HitCounter } from './hits.js';
import { importRule, type ImportAnswer, type ImportOrigin } from './import.js';
import type { Candidate } from './gate.js';
import { EvolutionLoop } from './loop.js';
import { EvolutionQueue, type Job } from './queue.js';
import { RuleAdmin } from './rule-admin.js';

export interface EvolutionDeps {
  config: Config;
  db: Kysely<Database>;
  redis?: Redis;
  broadcast: Broadcast;
  inspector: Inspector;
  verdictCache: VerdictCache;
  logger: Logger;
}

/** What judge() hands over: one inspected item and its verdict (with the request id it was answered under). */
export interface Observed {
  content: string;
  kind: Kind;
  verdict: Verdict & { request_id: string };
}

export interface Evolution {
  readonly enabled: boolean;
  readonly admin: RuleAdmin;
  /** The main thread's rule set (reload count for tests). */
  readonly rules: ActiveRules;
  /** The `rulesTenant` of a request: the tenant when it has evolved rules of its own, else undefined (issue 10). */
  rulesScope(tenantId: string | undefined): string | undefined;
  /**
   * Called by judge() for every inspected item: counts rule hits and, when `learn` (the tenant holds the evolution
   * add-on), queues HIGH/BLOCK attacks. Never throws, never waits.
   */
  observe(tenantId: string | undefined, observed: readonly Observed[], learn: boolean): void;
  /** A reported miss is queued for analysis only when `learn`; false positives count for every tenant. */
  feedback(tenantId: string, body: FeedbackBody, learn: boolean): Promise<FeedbackAnswer>;
  /** A rule from a syndicate peer (issue 14): this gateway's own gate decides; it applies to `tenantId` only. */
  importRule(tenantId: string, candidate: Candidate, origin: ImportOrigin): Promise<ImportAnswer>;
  /** Resolves when no analysis is queued or running (tests and the eval script). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

const ANALYSIS_TIMEOUT_MS = 60_000;
const IGNORED_LAYERS = new Set(['secrets', 'ers']);

/**
 * Wires the evolution loop (issue 4). Off (EVOLUTION_ENABLED=false) means off: no analyses and no evolved rules in
 * the pipeline; the admin routes still list and edit the store.
 */
export async function createEvolution(deps: EvolutionDeps): Promise<Evolution> {
  const c = deps.config;
  const rules = new ActiveRules({ ...deps, maxRules: c.evolutionMaxRules, maxImported: c.tunnelImportMaxRules, debounceMs: c.tunnelImportReloadDebounceMs });
  const hits = new HitCounter(deps.db, deps.logger);
  const attribution = deps.redis ? redisAttribution(deps.redis, c.redisPrefix) : memoryAttribution();
  const admin = new RuleAdmin(deps.db, hits, rules, c.evolutionEnabled);
  const queue = new EvolutionQueue(c.evolutionQueueLimit, c.evolutionTenantSharePct);
  const limits = { perMinute: c.evolutionRatePerMinute, tenantPerMinute: c.evolutionTenantRatePerMinute, daily: c.evolutionDailyBudget, tenantSharePct: c.evolutionTenantSharePct };
  const analysis = createAnalysisPool(ANALYSIS_TIMEOUT_MS);
  const shapes = new AllowedShapes();
  const llm = llmOf(c);
  const loop = new EvolutionLoop({
    db: deps.db,
    queue,
    budget: deps.redis ? redisBudget(deps.redis, c.redisPrefix, limits) : memoryBudget(limits),
    analysis,
    ...(llm ? { llm } : {}),
    rules,
    mode: c.evolutionMode,
    retryAfterMs: c.evolutionRetryAfterSeconds * 1000,
    maxPatternChars: c.evolutionMaxPatternChars,
    maxRules: c.evolutionMaxRules,
    promoteTenants: c.evolutionPromoteTenants,
    shapes,
    logger: deps.logger,
  });
  if (c.evolutionEnabled) {
    await rules.start(c.evolutionResyncMs);
    hits.start(c.evolutionHitFlushMs);
  }
  const offer = (job: Job) => {
    if (queue.offer(job) === 'queued') loop.kick();
  };

  return {
    enabled: c.evolutionEnabled,
    admin,
    rules,
    rulesScope: (tenantId) => (c.evolutionEnabled ? rules.scopeOf(tenantId) : undefined),
    observe(tenantId, observed, learn) {
      if (!c.evolutionEnabled) return;
      try {
        for (const { content, kind, verdict } of observed) {
          const ruleIds = verdict.flags.filter((f) => f.type === EVOLVED_RULE && f.detail).map((f) => f.detail as string);
          if (ruleIds.length > 0) {
            // Already covered by a rule: count it, remember it for feedback, do not analyse it again.
            hits.count(ruleIds);
            if (tenantId) attribution.remember(tenantId, verdict.request_id, ruleIds);
            continue;
          }
          if (!learn || !tenantId) continue;
          // Allowed, with nothing redacted: its shape (hashed word 3-grams, never the text) is what a rule must not match.
          if (verdict.action === 'allow' && verdict.secrets.length === 0) {
            shapes.record(tenantId, content);
            continue;
          }
          if (!isAttack(verdict) || content.length > config.maxAnalysedChars) continue;
          const text = redactForAnalysis(content, verdict.secrets);
          const evidence = independentEvidence(verdict);
          offer({ tenantId, kind, text, hash: contentHash(text, tenantId), ...(verdict.threat_family ? { family: verdict.threat_family } : {}), origin: 'verdict', ...(evidence ? { evidence } : {}) });
        }
      } catch (err) {
        deps.logger.warn({ event: 'evolution_observe', error: (err as Error).name }, 'verdict not handed to the evolution loop');
      }
    },
    feedback: (tenantId, body, learn) =>
      handleFeedback(
        {
          db: deps.db,
          attribution,
          rules,
          fpThreshold: c.evolutionFpThreshold,
          async redactMiss(content, kind) {
            const [verdict] = await deps.inspector.inspect([{ content, kind }]);
            const text = redactForAnalysis(content, verdict.secrets);
            return { text, hash: contentHash(text, tenantId) };
          },
          queueMiss(tenantId, miss, kind) {
            if (!c.evolutionEnabled || !learn || miss.text.length > config.maxAnalysedChars) return false;
            const queued = queue.offer({ tenantId, kind, ...miss, origin: 'feedback' }) === 'queued';
            if (queued) loop.kick();
            return queued;
          },
        },
        tenantId,
        body,
      ),
    importRule: (tenantId, candidate, origin) =>
      importRule(
        { db: deps.db, analysis, rules, enabled: c.evolutionEnabled, mode: c.evolutionMode,
          maxRules: c.evolutionMaxRules,
          quota: { total: c.tunnelImportMaxRules, perTenant: c.tunnelImportMaxRulesPerTenant, perTunnel: c.tunnelImportMaxRulesPerTunnel },
          maxPatternChars: c.evolutionMaxPatternChars, logger: deps.logger },
        tenantId,
        candidate,
        origin,
      ),
    idle: () => loop.idle(),
    async close() {
      rules.stop();
      await Promise.all([loop.close(), analysis.close()]);
      await hits.stop().catch(() => {});
      await llm?.upstream.close();
    },
  };
}

/** HIGH or BLOCK because of what the content says: not a credential alone (redacted, not an attack) nor a ban. */
function isAttack(verdict: Verdict): boolean {
  if (verdict.risk_level !== 'HIGH' && verdict.risk_level !== 'BLOCK') return false;
  return verdict.flags.some((f) => f.score >= decision.thresholds.high && !IGNORED_LAYERS.has(f.layer) && f.type !== 'shadow_banned');
}

/** Cross-setting check, run before any resource is opened so a bad combination fails the start cleanly. */
export function assertEvolutionConfig(c: Config): void {
  if (c.evolutionAnalyser === 'llm' && !c.evolutionLlmModel) throw new ConfigError('EVOLUTION_LLM_MODEL', 'a model name when EVOLUTION_ANALYSER=llm');
}

function llmOf(c: Config) {
  assertEvolutionConfig(c);
  const wanted = c.evolutionAnalyser === 'llm' || (c.evolutionAnalyser === 'auto' && c.evolutionLlmModel !== undefined);
  if (!wanted || !c.evolutionLlmModel) return undefined;
  const timeoutMs = c.evolutionLlmTimeoutMs;
  return {
    upstream: new Upstream({ connectTimeoutMs: Math.min(timeoutMs, c.upstreamConnectTimeoutMs), headersTimeoutMs: timeoutMs, bodyTimeoutMs: timeoutMs }),
    settings: {
      baseUrl: c.evolutionLlmBaseUrl ?? c.upstreamBaseUrl,
      model: c.evolutionLlmModel,
      ...(c.evolutionLlmApiKey ?? c.upstreamApiKey ? { apiKey: c.evolutionLlmApiKey ?? c.upstreamApiKey } : {}),
      timeoutMs,
      maxReplyBytes: c.evolutionLlmMaxReplyBytes,
    },
  };
}
