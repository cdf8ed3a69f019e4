import type { Kysely } from 'kysely';
import { BastionError } from '../errors.js';
import { findRule, transitionRule, type EvolvedRule } from '../storage/evolved-rules.js';
import type { RuleStatus } from '../storage/evolution-schema.js';
import type { Database } from '../storage/schema.js';
import { tenantReportCounts, tenantRules } from '../storage/tenant-rules.js';
import type { ActiveRules } from './active-rules.js';
import { TENANT_FALSE_POSITIVE } from './feedback.js';
import type { HitCounter } from './hits.js';
import { IMPORTED_SOURCE } from '../tunnels/rules.js';

/** Why a rule its tenant switched off is off; only those may be switched on again by the tenant. */
export const TENANT_DISABLED = 'disabled by its tenant';
const TENANT_REASONS = new Set([TENANT_DISABLED, TENANT_FALSE_POSITIVE]);

export interface TenantRuleView {
  id: string;
  kind: string;
  pattern: string;
  status: RuleStatus;
  /** `your_traffic`: made from this tenant's attacks, applies to it alone; `shared`: in force for every tenant; `imported`: from a syndicate peer, for this tenant. */
  origin: 'your_traffic' | 'shared' | 'imported';
  family: string | null;
  source: string;
  attack_type: string | null;
  explanation: string | null;
  reason: string | null;
  /** Requests of this tenant the rule judged; null for a shared rule (its count is every tenant's). */
  hits: number | null;
  /** False positives this tenant reported against the rule. */
  your_reports: number;
  /** Whether this tenant may disable or enable it: its own rules, not shared ones. */
  yours: boolean;
  created_at: string;
  updated_at: string;
}

/**
 * The tenant's side of the evolved rules: what is in force for it, where each rule came from, how often it judged
 * its requests and what it reported. The tenant's word is final for its own rules (disable, and enable one it
 * switched off itself); a shared rule is changed by operators, or disabled by enough tenants' reports.
 */
export class TenantRuleAdmin {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly hits: Pick<HitCounter, 'unflushed'>,
    private readonly rules: Pick<ActiveRules, 'changed'>,
    private readonly live: boolean,
  ) {}

  async list(tenantId: string, limit: number): Promise<TenantRuleView[]> {
    const [rows, reports] = await Promise.all([tenantRules(this.db, tenantId, limit), tenantReportCounts(this.db, tenantId)]);
    return rows.map((r) => this.view(r, tenantId, reports.get(r.id) ?? 0));
  }

  async show(tenantId: string, id: string): Promise<TenantRuleView> {
    const rule = await this.visible(tenantId, id);
    return this.view(rule, tenantId, (await tenantReportCounts(this.db, tenantId)).get(id) ?? 0);
  }

  async decide(tenantId: string, id: string, decision: 'disable' | 'enable'): Promise<TenantRuleView> {
    const rule = await this.visible(tenantId, id);
    if (!owns(rule, tenantId)) {
      throw new BastionError('TENANT_FORBIDDEN', { message: 'This rule is shared by every tenant: report its false positives (POST /filter/feedback); an operator decides.' });
    }
    if (decision === 'enable' && rule.status === 'disabled' && !TENANT_REASONS.has(rule.reason ?? '')) {
      throw new BastionError('RULE_TRANSITION_INVALID', { message: `An operator disabled this rule (${rule.reason ?? 'no reason given'}): only an operator can enable it.`, extra: { status: rule.status } });
    }
    const after =
      decision === 'disable'
        ? await transitionRule(this.db, id, ['active', 'pending'], 'disabled', TENANT_DISABLED)
        : await transitionRule(this.db, id, ['disabled'], 'active', null);
    if (!after) {
      throw new BastionError('RULE_TRANSITION_INVALID', { message: `The rule is ${rule.status}: ${decision} does not apply.`, extra: { status: rule.status } });
    }
    if (this.live && (rule.status === 'active' || after.status === 'active')) await this.rules.changed();
    return this.show(tenantId, id);
  }

  /** The rule if this tenant may see it (shared and in force, or its own); else 404, as for a rule that does not exist. */
  private async visible(tenantId: string, id: string): Promise<EvolvedRule> {
    const rule = await findRule(this.db, id);
    const visible = rule && (owns(rule, tenantId) ? rule.status !== 'refused' && rule.status !== 'rejected' : rule.scope === 'global' && rule.status === 'active');
    if (!rule || !visible) throw new BastionError('RESOURCE_NOT_FOUND', { message: 'No such rule.' });
    return rule;
  }

  private view(r: EvolvedRule, tenantId: string, reports: number): TenantRuleView {
    const yours = owns(r, tenantId);
    return {
      id: r.id,
      kind: r.kind,
      pattern: r.pattern,
      status: r.status,
      origin: !yours ? 'shared' : r.source === IMPORTED_SOURCE ? 'imported' : 'your_traffic',
      family: r.family,
      source: r.source,
      attack_type: r.attack_type,
      explanation: r.explanation,
      reason: r.reason,
      hits: yours ? Number(r.hits) + this.hits.unflushed(r.id) : null,
      your_reports: reports,
      yours,
      created_at: new Date(Number(r.created_at)).toISOString(),
      updated_at: new Date(Number(r.updated_at)).toISOString(),
    };
  }
}

const owns = (rule: Pick<EvolvedRule, 'scope' | 'tenant_id'>, tenantId: string) => rule.scope === 'tenant' && rule.tenant_id === tenantId;
