import type { Generated } from 'kysely';

/**
 * Tables of migration 0003-evolution. Request content is never stored: an analysed attack leaves its SHA-256
 * (of the normalised, redacted text) and, when it produced one, a rule. Timestamps are epoch milliseconds.
 */

export const RULE_STATUSES = ['pending', 'active', 'rejected', 'disabled', 'refused'] as const;
export type RuleStatus = (typeof RULE_STATUSES)[number];

export interface EvolvedRulesTable {
  id: string;
  kind: 'regex' | 'phrase' | 'exemplar';
  pattern: string;
  family: string | null;
  /** pending (review mode), active, rejected / disabled by an operator or by feedback, refused by the gate. */
  status: RuleStatus;
  /** Which analyser wrote it: `llm` or `offline`. */
  source: string;
  model: string | null;
  attack_type: string | null;
  explanation: string | null;
  /** SHA-256 of the triggering attack (normalised, redacted). */
  content_hash: string;
  tenant_id: string | null;
  /** `tenant`: applies to `tenant_id` only; `global`: to every tenant (promoted, or made by an operator). Migration 0005. */
  scope: RuleScope;
  /** Why the gate refused it, or why it was disabled. */
  reason: string | null;
  hits: Generated<number>;
  fp_reports: Generated<number>;
  created_at: number;
  updated_at: number;
}

export type RuleScope = 'tenant' | 'global';

/** Migration 0005: the tenants whose own traffic produced a rule (the first one, then each independent repeat). */
export interface EvolvedRuleTenantsTable {
  rule_id: string;
  tenant_id: string;
  created_at: number;
}

export type AnalysisOutcome = 'running' | 'rule' | 'refused' | 'failed' | 'skipped';

/** One row per analysed attack: the cross-replica dedupe claim and the record of what came of it. */
export interface EvolutionAnalysesTable {
  content_hash: string;
  tenant_id: string;
  kind: string;
  /** `verdict` (a HIGH/BLOCK verdict) or `feedback` (a tenant-reported miss). */
  origin: string;
  analyser: string;
  outcome: AnalysisOutcome;
  reason: string | null;
  rule_id: string | null;
  claimed_at: number;
  finished_at: number | null;
}

/** One report per tenant and request id. */
export interface RuleFeedbackTable {
  tenant_id: string;
  request_id: string;
  type: 'false_positive' | 'miss';
  rule_id: string | null;
  content_hash: string | null;
  created_at: number;
}

export interface EvolutionTables {
  evolved_rules: EvolvedRulesTable;
  evolved_rule_tenants: EvolvedRuleTenantsTable;
  evolution_analyses: EvolutionAnalysesTable;
  rule_feedback: RuleFeedbackTable;
}
