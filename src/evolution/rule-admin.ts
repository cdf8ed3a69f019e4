import type { Kysely } from 'kysely';
import { BastionError } from '../errors.js';
import type { RuleStatus } from '../storage/evolution-schema.js';
import { listAnalyses, type Analysis } from '../storage/evolution-analyses.js';
import { findRule, listRules, transitionRule, type ListedRule } from '../storage/evolved-rules.js';
import type { Database } from '../storage/schema.js';
import type { ActiveRules } from './active-rules.js';
import type { HitCounter } from './hits.js';
import { TenantRuleAdmin } from './tenant-rule-admin.js';

export type Decision = 'approve' | 'reject' | 'disable' | 'enable';

/** Which states each operator decision applies to. A rule the gate refused can never be approved. */
const TRANSITIONS: Record<Decision, { from: RuleStatus[]; to: RuleStatus; reason: string | null }> = {
  approve: { from: ['pending', 'disabled'], to: 'active', reason: null },
  reject: { from: ['pending'], to: 'rejected', reason: 'rejected by an operator' },
  disable: { from: ['active', 'pending'], to: 'disabled', reason: 'disabled by an operator' },
  enable: { from: ['pending', 'disabled'], to: 'active', reason: null },
};

export interface RuleView {
  id: string;
  kind: string;
  pattern: string;
  status: RuleStatus;
  family: string | null;
  source: string;
  model: string | null;
  attack_type: string | null;
  explanation: string | null;
  reason: string | null;
  hits: number;
  fp_reports: number;
  tenant_id: string | null;
  /** `tenant` (applies to tenant_id only) or `global` (issue 10). */
  scope: string;
  /** Tenants whose own traffic produced it; at EVOLUTION_PROMOTE_TENANTS it becomes global. */
  tenants: number;
  content_hash: string;
  created_at: string;
  updated_at: string;
}

export interface AnalysisView {
  content_hash: string;
  tenant_id: string;
  kind: string;
  origin: string;
  analyser: string;
  outcome: string;
  reason: string | null;
  rule_id: string | null;
  claimed_at: string;
  finished_at: string | null;
}

/** The operator surface of /admin/rules: list, approve, reject, disable. Changes to the active set reach every replica. */
export class RuleAdmin {
  /** What one tenant sees of the rules and may decide about its own (console, `bastion rules --tenant`). */
  readonly tenant: TenantRuleAdmin;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly hits: Pick<HitCounter, 'unflushed'>,
    private readonly rules: Pick<ActiveRules, 'changed'>,
    private readonly live: boolean,
  ) {
    this.tenant = new TenantRuleAdmin(db, hits, rules, live);
  }

  async show(id: string): Promise<RuleView> {
    const rule = await findRule(this.db, id);
    if (!rule) throw new BastionError('RESOURCE_NOT_FOUND', { message: 'No such rule.' });
    return ruleView(rule, this.hits);
  }

  async list(options: { status?: RuleStatus; limit: number }): Promise<RuleView[]> {
    return (await listRules(this.db, options)).map((r) => ruleView(r, this.hits));
  }

  async analyses(limit: number): Promise<AnalysisView[]> {
    return (await listAnalyses(this.db, limit)).map(analysisView);
  }

  async decide(id: string, decision: Decision): Promise<RuleView> {
    const t = TRANSITIONS[decision];
    const before = await findRule(this.db, id);
    if (!before) throw new BastionError('RESOURCE_NOT_FOUND', { message: 'No such rule.' });
    const after = await transitionRule(this.db, id, t.from, t.to, t.reason);
    if (!after) {
      throw new BastionError('RULE_TRANSITION_INVALID', {
        message: `The rule is ${before.status}: ${decision} applies to ${t.from.join(' or ')} rules.`,
        extra: { status: before.status },
      });
    }
    if (this.live && (before.status === 'active' || after.status === 'active')) await this.rules.changed();
    return ruleView(after, this.hits);
  }
}

export function ruleView(r: ListedRule, hits: Pick<HitCounter, 'unflushed'>): RuleView {
  return {
    id: r.id,
    kind: r.kind,
    pattern: r.pattern,
    status: r.status,
    family: r.family,
    source: r.source,
    model: r.model,
    attack_type: r.attack_type,
    explanation: r.explanation,
    reason: r.reason,
    hits: Number(r.hits) + hits.unflushed(r.id),
    fp_reports: Number(r.fp_reports),
    tenant_id: r.tenant_id,
    scope: r.scope,
    tenants: Number(r.tenants ?? 0),
    content_hash: r.content_hash,
    created_at: new Date(Number(r.created_at)).toISOString(),
    updated_at: new Date(Number(r.updated_at)).toISOString(),
  };
}

function analysisView(a: Analysis): AnalysisView {
  return {
    content_hash: a.content_hash,
    tenant_id: a.tenant_id,
    kind: a.kind,
    origin: a.origin,
    analyser: a.analyser,
    outcome: a.outcome,
    reason: a.reason,
    rule_id: a.rule_id,
    claimed_at: new Date(Number(a.claimed_at)).toISOString(),
    finished_at: a.finished_at === null ? null : new Date(Number(a.finished_at)).toISOString(),
  };
}
