import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Upstream } from '../upstream/client.js';
import { claimAnalysis, finishAnalysis } from '../storage/evolution-analyses.js';
import { addProducer, insertRule, promoteRule, rulesInForce, type ScopedRule } from '../storage/evolved-rules.js';
import type { DynamicRule } from '../inspect/types.js';
import type { Database } from '../storage/schema.js';
import type { ActiveRules } from './active-rules.js';
import type { AllowedShapes } from './allowed-shapes.js';
import type { AnalysisPool } from './analysis-pool.js';
import type { EvolutionBudget } from './budget.js';
import type { Candidate } from './gate.js';
import { analyseWithLlm, type LlmSettings } from './llm-analyser.js';
import type { EvolutionQueue, Job } from './queue.js';

export interface LoopDeps {
  db: Kysely<Database>;
  queue: EvolutionQueue;
  budget: EvolutionBudget;
  analysis: AnalysisPool;
  /** The language-model analyser; absent: the offline analyser. */
  llm?: { upstream: Upstream; settings: LlmSettings };
  rules: ActiveRules;
  mode: 'auto' | 'review';
  retryAfterMs: number;
  maxPatternChars: number;
  maxRules: number;
  /** Tenants that must produce a rule independently before it applies to every tenant (EVOLUTION_PROMOTE_TENANTS). */
  promoteTenants: number;
  /** Each learning tenant's recently allowed traffic shapes: a candidate they hold is refused. */
  shapes: AllowedShapes;
  logger: Logger;
}

/** The reason recorded for a text only a statistical model judged HIGH (src/evolution/evidence.ts). */
export const MODEL_ONLY = 'model_only: only a statistical model judged it an attack; no independent evidence';

export const newRuleId = () => `evo_${randomBytes(9).toString('base64url')}`;

/**
 * The analysis loop: one job at a time, off the request path. Claim (once across replicas) → budget → analyser
 * (model or offline) → validation gate in the analysis thread → store → activate (auto) or wait (review). Every
 * step's failure ends that job with a recorded reason; nothing here can throw into a request or stop the loop.
 * Logs carry the content hash prefix and metadata, never content.
 */
export class EvolutionLoop {
  private draining?: Promise<void>;
  private closed = false;
  private readonly stop = new AbortController();

  constructor(private readonly deps: LoopDeps) {}

  /** Starts draining the queue unless already draining. */
  kick(): void {
    if (this.draining || this.closed) return;
    this.draining = this.drain().finally(() => {
      this.draining = undefined;
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stop.abort();
    this.deps.queue.clear();
    await this.draining;
  }

  /** Resolves when the queue is empty and no job is running (tests, eval). */
  idle(): Promise<void> {
    return this.draining ?? Promise.resolve();
  }

  private async drain(): Promise<void> {
    // Yield first: the request that offered the job finishes before any analysis work starts.
    await new Promise((resolve) => setImmediate(resolve));
    for (let job = this.deps.queue.take(); job && !this.closed; job = this.deps.queue.take()) {
      try {
        await this.process(job);
      } catch (err) {
        this.deps.logger.warn({ event: 'evolution_error', hash: job.hash.slice(0, 12), error: (err as Error).name }, 'analysis failed');
        await finishAnalysis(this.deps.db, job.hash, 'failed', { reason: 'internal_error' }).catch(() => {});
      }
    }
  }

  private async process(job: Job): Promise<void> {
    const { db, logger } = this.deps;
    const analyser = this.deps.llm ? 'llm' : 'offline';
    const claim = { contentHash: job.hash, tenantId: job.tenantId, kind: job.kind, origin: job.origin, analyser };
    if (!(await claimAnalysis(db, claim, this.deps.retryAfterMs))) return;
    // The loop learns attacks, not its own verdicts: no budget, no analyser, no rule for a model-only block.
    if (job.origin === 'verdict' && !job.evidence) return this.finish(job, 'refused', MODEL_ONLY);
    const refusal = await this.deps.budget.take(job.tenantId).catch(() => 'budget_unavailable' as const);
    if (refusal) return this.finish(job, 'skipped', refusal);

    const inForce = await rulesInForce(db, this.deps.maxRules);
    if (inForce.length >= this.deps.maxRules) return this.finish(job, 'skipped', 'rule_limit_reached');
    // Issue 10: the global rules and this tenant's own are what a new rule must not duplicate; another tenant's rule
    // that catches this attack was produced again, by this tenant, independently.
    const existing = inForce.filter((r) => r.tenantId === undefined || r.tenantId === job.tenantId).map(unscoped);
    // A reported miss is what a tenant says, not what its traffic produced: it never counts towards a promotion.
    const foreign = job.origin === 'verdict' ? inForce.filter((r) => r.tenantId !== undefined && r.tenantId !== job.tenantId).map(unscoped) : [];
    const allowed = this.deps.shapes.sample(job.tenantId);
    const task = { text: job.text, kind: job.kind, ...(job.family ? { family: job.family } : {}), existing, foreign, maxPatternChars: this.deps.maxPatternChars, allowed };

    let candidates: Candidate[] | undefined;
    let meta: { attackType?: string; explanation?: string } = {};
    if (this.deps.llm && foreign.length > 0) {
      const check = await this.deps.analysis.run({ ...task, repeatsOnly: true });
      if (check.repeats) return this.repeated(job, check.repeats);
    }
    if (this.deps.llm) {
      const { upstream, settings } = this.deps.llm;
      const reply = await analyseWithLlm(upstream, settings, { text: job.text, kind: job.kind, family: job.family }, this.stop.signal);
      if (!reply.ok) return this.finish(job, 'failed', reply.reason);
      candidates = [reply.analysis.candidate];
      meta = reply.analysis;
    }
    if (this.closed) return this.finish(job, 'failed', 'shutting_down');
    const outcome = await this.deps.analysis.run({ ...task, ...(candidates ? { candidates, foreign: [] } : {}) });
    if (outcome.repeats) return this.repeated(job, outcome.repeats);

    const base = {
      source: analyser,
      model: this.deps.llm?.settings.model ?? null,
      attack_type: meta.attackType ?? null,
      explanation: meta.explanation ?? null,
      content_hash: job.hash,
      tenant_id: job.tenantId,
      created_at: Date.now(),
    };
    if (!outcome.accepted) {
      const reason = outcome.refusals[0] ?? 'refused';
      if (candidates) {
        // What the model proposed stays visible to operators, with the gate's reason; it can never be approved.
        const id = newRuleId();
        const c = candidates[0];
        // A pattern refused as customer data is not kept either (issue 10): only the reason is.
        const pattern = /^(rare_token|customer_data|mentions_placeholder)/.test(reason) ? '[withheld]' : c.pattern.slice(0, 1024);
        await insertRule(db, { ...base, id, kind: c.kind, pattern, family: c.family ?? null, status: 'refused', reason: reason.slice(0, 256) });
        return this.finish(job, 'refused', reason, id);
      }
      return this.finish(job, 'refused', outcome.refusals.length > 1 ? `${reason} (+${outcome.refusals.length - 1} more)` : reason);
    }
    const c = outcome.accepted;
    const status = this.deps.mode === 'review' || job.origin === 'feedback' ? 'pending' : 'active';
    const id = newRuleId();
    // A new rule applies to its tenant only until EVOLUTION_PROMOTE_TENANTS tenants produced it (1: at once to all).
    const scope = this.deps.promoteTenants <= 1 ? 'global' : 'tenant';
    await insertRule(db, { ...base, id, kind: c.kind, pattern: c.pattern, family: c.family ?? null, status, reason: null, scope });
    await this.finish(job, 'rule', undefined, id);
    logger.info({ event: 'rule_created', rule: id, status, scope, kind: c.kind, source: analyser, evidence: job.evidence ?? job.origin, hash: job.hash.slice(0, 12), tenant: job.tenantId }, 'evolved rule');
    if (status === 'active') await this.deps.rules.changed();
  }

  /** This tenant's traffic produced another tenant's rule again: count it, and promote the rule at the threshold. */
  private async repeated(job: Job, ruleId: string): Promise<void> {
    const tenants = await addProducer(this.deps.db, ruleId, job.tenantId);
    const promoted = tenants >= this.deps.promoteTenants && (await promoteRule(this.deps.db, ruleId));
    await this.finish(job, 'rule', `repeat: produced by ${tenants} tenants`, ruleId);
    this.deps.logger.info({ event: promoted ? 'rule_promoted' : 'rule_repeated', rule: ruleId, tenants, hash: job.hash.slice(0, 12), tenant: job.tenantId }, 'evolved rule produced again');
    if (promoted) await this.deps.rules.changed();
  }

  private async finish(job: Job, outcome: 'rule' | 'refused' | 'failed' | 'skipped', reason?: string, ruleId?: string): Promise<void> {
    await finishAnalysis(this.deps.db, job.hash, outcome, { ...(reason ? { reason } : {}), ...(ruleId ? { ruleId } : {}) });
    if (outcome !== 'rule') {
      // Only the reason's code: a detail (an RE2 error message) could quote part of a pattern.
      this.deps.logger.info({ event: 'evolution_outcome', outcome, reason: reason?.split(':')[0], hash: job.hash.slice(0, 12), tenant: job.tenantId }, 'attack analysed');
    }
  }
}

function unscoped(rule: ScopedRule): DynamicRule {
  return { id: rule.id, kind: rule.kind, pattern: rule.pattern, ...(rule.family ? { family: rule.family } : {}) };
}
