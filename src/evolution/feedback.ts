import type { Kysely } from 'kysely';
import { BastionError } from '../errors.js';
import type { Kind } from '../inspect/types.js';
import { addFalsePositive, findRule, transitionRule } from '../storage/evolved-rules.js';
import { recordFeedback, tenantReportedRule } from '../storage/rule-feedback.js';
import type { Database } from '../storage/schema.js';
import type { ActiveRules } from './active-rules.js';
import type { RuleAttribution } from './attribution.js';

export interface FeedbackBody {
  request_id: string;
  type: 'false_positive' | 'miss';
  /** For a miss: the text that should have been caught, submitted for analysis (its rule waits for an operator). */
  content?: string;
  kind?: Kind;
}

export interface FeedbackAnswer {
  recorded: true;
  rule_ids?: string[];
  disabled_rule_ids?: string[];
  queued_for_analysis?: boolean;
  /** What the report did, in words: which rules stopped at once, which wait for more tenants. */
  message?: string;
}

/** Why a rule was switched off by its own tenant's report (the console and the CLI let that tenant switch it on again). */
export const TENANT_FALSE_POSITIVE = 'false_positive: reported by its tenant';

export interface FeedbackDeps {
  db: Kysely<Database>;
  attribution: RuleAttribution;
  rules: ActiveRules;
  fpThreshold: number;
  /** Runs the secret redactor over a reported miss (one pool task): the loop only ever holds redacted text. */
  redactMiss(content: string, kind: Kind): Promise<{ text: string; hash: string }>;
  /** Offers a redacted miss to the analysis queue; true when it was queued. */
  queueMiss(tenantId: string, miss: { text: string; hash: string }, kind: Kind): boolean;
}

/**
 * Tenant feedback (POST /filter/feedback). A false positive counts only against the evolved rules that really judged
 * that request for that tenant (known from the verdict, for a day), once per request and once per tenant and rule.
 * The tenant's word is final for its own rules: a rule scoped to that tenant (made from its traffic, applying to it
 * alone) is disabled at once. A shared rule protects every tenant, so one tenant cannot switch it off: it is disabled
 * everywhere once EVOLUTION_FP_THRESHOLD distinct tenants reported it. A miss is recorded and, with its content, analysed
 * like an attack, but the rule it yields always waits for an operator: tenant input never activates a rule alone.
 */
export async function handleFeedback(deps: FeedbackDeps, tenantId: string, body: FeedbackBody): Promise<FeedbackAnswer> {
  const now = Date.now();
  if (body.type === 'false_positive') {
    const ruleIds = await deps.attribution.lookup(tenantId, body.request_id);
    if (!ruleIds || ruleIds.length === 0) {
      throw new BastionError('FEEDBACK_NOT_ATTRIBUTABLE');
    }
    const fresh = await recordFeedback(deps.db, { tenant_id: tenantId, request_id: body.request_id, type: 'false_positive', rule_id: ruleIds[0], content_hash: null, created_at: now });
    if (!fresh) throw new BastionError('CONFLICT', { message: 'This request was already reported.' });
    const disabled: string[] = [];
    const shared: string[] = [];
    for (const id of ruleIds) {
      const rule = await findRule(deps.db, id);
      const own = rule?.scope === 'tenant' && rule.tenant_id === tenantId;
      // One tenant counts once per rule: repeated reports from a single tenant cannot switch a rule off for everyone.
      const counted = (await tenantReportedRule(deps.db, tenantId, id, body.request_id)) ? undefined : await addFalsePositive(deps.db, id);
      if (own) {
        if (await transitionRule(deps.db, id, ['active'], 'disabled', TENANT_FALSE_POSITIVE, now)) disabled.push(id);
        continue;
      }
      if (counted && counted.reports >= deps.fpThreshold && counted.status === 'active') {
        const reason = `false_positive_reports: ${counted.reports}`;
        if (await transitionRule(deps.db, id, ['active'], 'disabled', reason, now)) disabled.push(id);
        continue;
      }
      shared.push(id);
    }
    if (disabled.length > 0) await deps.rules.changed();
    return { recorded: true, rule_ids: ruleIds, ...(disabled.length ? { disabled_rule_ids: disabled } : {}), message: feedbackMessage(disabled, shared, deps.fpThreshold) };
  }
  const kind = body.kind ?? 'prompt';
  const miss = body.content !== undefined ? await deps.redactMiss(body.content, kind) : undefined;
  const fresh = await recordFeedback(deps.db, { tenant_id: tenantId, request_id: body.request_id, type: 'miss', rule_id: null, content_hash: miss?.hash ?? null, created_at: now });
  if (!fresh) throw new BastionError('CONFLICT', { message: 'This request was already reported.' });
  return { recorded: true, queued_for_analysis: miss ? deps.queueMiss(tenantId, miss, kind) : false };
}

function feedbackMessage(disabled: readonly string[], shared: readonly string[], threshold: number): string {
  const parts: string[] = [];
  if (disabled.length > 0) parts.push(`Disabled at once: ${disabled.join(', ')}; it no longer judges your requests.`);
  if (shared.length > 0) parts.push(`Counted against ${shared.join(', ')}: a rule shared by every tenant is disabled once ${threshold} tenants report it.`);
  return parts.join(' ') || 'Recorded.';
}
