import type { Kysely } from 'kysely';
import { BastionError } from '../errors.js';
import type { Kind } from '../inspect/types.js';
import { addFalsePositive, transitionRule } from '../storage/evolved-rules.js';
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
}

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
 * that request for that tenant (known from the verdict, for a day), once per request and once per tenant and rule; a
 * rule reported by EVOLUTION_FP_THRESHOLD distinct tenants is disabled everywhere and reported in /admin/rules. A miss is recorded and, with its content, analysed
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
    for (const id of ruleIds) {
      // One tenant counts once per rule: repeated reports from a single tenant cannot switch a rule off for everyone.
      if (await tenantReportedRule(deps.db, tenantId, id, body.request_id)) continue;
      const counted = await addFalsePositive(deps.db, id);
      if (counted && counted.reports >= deps.fpThreshold && counted.status === 'active') {
        const reason = `false_positive_reports: ${counted.reports}`;
        if (await transitionRule(deps.db, id, ['active'], 'disabled', reason, now)) disabled.push(id);
      }
    }
    if (disabled.length > 0) await deps.rules.changed();
    return { recorded: true, rule_ids: ruleIds, ...(disabled.length ? { disabled_rule_ids: disabled } : {}) };
  }
  const kind = body.kind ?? 'prompt';
  const miss = body.content !== undefined ? await deps.redactMiss(body.content, kind) : undefined;
  const fresh = await recordFeedback(deps.db, { tenant_id: tenantId, request_id: body.request_id, type: 'miss', rule_id: null, content_hash: miss?.hash ?? null, created_at: now });
  if (!fresh) throw new BastionError('CONFLICT', { message: 'This request was already reported.' });
  return { recorded: true, queued_for_analysis: miss ? deps.queueMiss(tenantId, miss, kind) : false };
}
