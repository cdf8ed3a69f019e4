import type { FastifyRequest } from 'fastify';
import { BastionError } from '../errors.js';
import { requestGone } from '../workers/request-gone.js';
import type { ErsState, Kind, Role, Verdict } from '../inspect/types.js';
import type { ScopedRequest } from '../workers/inspect-task.js';
import { learnsFromTraffic } from '../evolution/entitlement.js';
import { tenantPolicies } from '../policy/tenant-policies.js';
import { observeJudge, observeVerdicts } from '../telemetry/observe.js';
import { countVerdicts, type GuardPoint } from './exchange.js';
import { reviewWithJudge } from '../judge/merge.js';

export interface Item {
  content: string;
  kind?: Kind;
  /** Provenance (the chat message's role, /filter's `role`); absent: derived from the kind, untrusted. */
  role?: Role;
}

export interface JudgeOptions {
  strict?: boolean;
  /** ERS entity, or undefined for routes that keep no entity score (/demo/filter). */
  entity?: string;
  contentLimitBytes: number;
  /**
   * How the verdicts count in the tenant's statistics and `bastion_screened_total` (src/screening/exchange.ts):
   * `filter` (default) each item is a request; a guard point folds them into the one exchange this HTTP request is
   * (counted once when its reply closes); false: not the tenant's traffic (tool definitions, the neutralizer's assess).
   */
  record?: GuardPoint | false;
  /** Whose policy and rules apply when the caller is not an API key (a paid MCP call by a tenant's agent). */
  tenantId?: string;
  /** Read the entity's ERS but do not record these verdicts in it (a second look at texts already recorded). */
  ersReadOnly?: boolean;
}

export type Judgement = Verdict & { request_id: string; ers: { score: number; shadow_banned: boolean } };

/**
 * Shared by /filter, /filter/batch, /demo/filter, the chat and embeddings guards and POST /threat/neutralizer/assess: bound the content, read ERS, inspect in the pool,
 * record the outcome in ERS. The response reports ERS as it stood when the request was judged.
 */
export async function judge(request: FastifyRequest, items: Item[], options: JudgeOptions): Promise<Judgement[]> {
  items.forEach((item, i) => {
    if (Buffer.byteLength(item.content, 'utf8') > options.contentLimitBytes) {
      throw new BastionError('CONTENT_TOO_LARGE', {
        message: `Content exceeds the inspection limit of ${options.contentLimitBytes} bytes.`,
        extra: { limit_bytes: options.contentLimitBytes, ...(items.length > 1 ? { item: i } : {}) },
      });
    }
  });
  const { ers } = request.server.services;
  const before: ErsState = options.entity ? await ers.read(options.entity) : { score: 0, shadowBanned: false };
  // The tenant's detection policy (process defaults for unauthenticated routes); a request's strict=true adds to it.
  const tenantId = options.tenantId ?? request.principal?.tenantId;
  const policy = await tenantPolicies(request.server.services).get(tenantId);
  // Evolved rules of this tenant's own (not yet promoted to every tenant) apply to its requests only (issue 10).
  const rulesTenant = request.server.services.evolution.rulesScope(tenantId);
  const requests: ScopedRequest[] = items.map((item) => ({
    content: item.content,
    kind: item.kind ?? 'prompt',
    ...(item.role ? { role: item.role } : {}),
    strict: options.strict === true || policy.strict,
    policy,
    ers: before,
    ...(rulesTenant !== undefined ? { rulesTenant } : {}),
  }));
  const inspectStarted = performance.timeOrigin + performance.now();
  const inspected = await inspectCached(request, requests);
  // The LLM judge, where configured: a second opinion on the uncertain band (it can add a block, never remove one).
  const llm = request.server.services.llmJudge;
  const verdicts = llm ? await reviewWithJudge(llm, tenantId ?? 'none', requests, inspected, (outcome) => observeJudge(request, outcome)) : inspected;
  if (options.entity && options.ersReadOnly !== true) await ers.record(options.entity, verdicts.map((v) => v.risk_level));
  request.verdictSummary = summarise(verdicts);
  observeVerdicts(request, requests.map((r) => r.kind), verdicts, before.shadowBanned, inspectStarted);
  const results = verdicts.map((v, i) => ({
    request_id: items.length > 1 ? `${request.id}.${i}` : request.id,
    ...v,
    ers: { score: before.score, shadow_banned: before.shadowBanned },
  }));
  // Evolution loop: rule hits are counted, HIGH/BLOCK attacks queued for analysis. Synchronous, bounded, never throws.
  // Only a tenant holding the evolution add-on has its attacks analysed into rules.
  const learn = tenantId === request.principal?.tenantId && learnsFromTraffic(request.principal);
  request.server.services.evolution.observe(tenantId, results.map((verdict, i) => ({ content: requests[i].content, kind: requests[i].kind, verdict })), learn);
  // Per-tenant daily aggregates for the portal (metadata only). A stats failure never changes a verdict.
  if (options.record !== false) countVerdicts(request, options.record ?? 'filter', results);
  return results;
}

/** Answers repeated texts from the verdict cache and sends only the rest to the pool, in one task. */
async function inspectCached(request: FastifyRequest, requests: ScopedRequest[]): Promise<Verdict[]> {
  const { inspector, verdictCache } = request.server.services;
  const keys = requests.map((r) => verdictCache.key(r));
  const verdicts: (Verdict | undefined)[] = keys.map((k) => {
    const hit = verdictCache.get(k);
    return hit && { ...hit, timings_ms: { cache: 0, total: 0 } };
  });
  const missing = verdicts.flatMap((v, i) => (v ? [] : [i]));
  if (missing.length > 0) {
    // A rule change while this inspection ran clears the cache: a verdict from before it must not be stored after.
    const generation = verdictCache.generation;
    // A request answered meanwhile (503/504) or whose client left drops its queued inspection (issue 10, defect 6).
    const fresh = await inspector.inspect(missing.map((i) => requests[i]), requestGone(request));
    missing.forEach((i, j) => {
      verdicts[i] = fresh[j];
      verdictCache.set(keys[i], fresh[j], generation);
    });
  }
  return verdicts as Verdict[];
}

/** Metadata for the access log: e.g. `block/HIGH` or `batch:3 blocked:1`. */
function summarise(verdicts: Verdict[]): string {
  if (verdicts.length === 1) return `${verdicts[0].action}/${verdicts[0].risk_level}`;
  return `batch:${verdicts.length} blocked:${verdicts.filter((v) => !v.allowed).length}`;
}
