import type { Kysely, Selectable } from 'kysely';
import type { AnalysisOutcome, EvolutionAnalysesTable } from './evolution-schema.js';
import type { Database } from './schema.js';

export type Analysis = Selectable<EvolutionAnalysesTable>;

export interface Claim {
  contentHash: string;
  tenantId: string;
  kind: string;
  origin: 'verdict' | 'feedback';
  analyser: string;
}

/**
 * Claims an attack for analysis: one atomic insert on the content hash, so among replicas sharing the database
 * exactly one analyses it. A claim whose analysis failed, was skipped for budget, or was left running by a process
 * that died can be taken again after `retryAfterMs`; a finished analysis (rule or refusal) never is.
 */
export async function claimAnalysis(db: Kysely<Database>, claim: Claim, retryAfterMs: number, now = Date.now()): Promise<boolean> {
  const row = await db
    .insertInto('evolution_analyses')
    .values({
      content_hash: claim.contentHash,
      tenant_id: claim.tenantId,
      kind: claim.kind,
      origin: claim.origin,
      analyser: claim.analyser,
      outcome: 'running',
      reason: null,
      rule_id: null,
      claimed_at: now,
      finished_at: null,
    })
    .onConflict((oc) =>
      oc
        .column('content_hash')
        .doUpdateSet({ tenant_id: claim.tenantId, analyser: claim.analyser, outcome: 'running', reason: null, claimed_at: now, finished_at: null })
        .where('evolution_analyses.outcome', 'in', ['failed', 'skipped', 'running'])
        .where('evolution_analyses.claimed_at', '<=', now - retryAfterMs),
    )
    .returning('content_hash')
    .executeTakeFirst();
  return row !== undefined;
}

export async function finishAnalysis(
  db: Kysely<Database>,
  contentHash: string,
  outcome: Exclude<AnalysisOutcome, 'running'>,
  detail: { reason?: string; ruleId?: string } = {},
  now = Date.now(),
): Promise<void> {
  await db
    .updateTable('evolution_analyses')
    .set({ outcome, reason: detail.reason?.slice(0, 256) ?? null, rule_id: detail.ruleId ?? null, finished_at: now })
    .where('content_hash', '=', contentHash)
    .execute();
}

/** Newest first: metadata only (hash, tenant, outcome, reason). */
export async function listAnalyses(db: Kysely<Database>, limit: number): Promise<Analysis[]> {
  return db.selectFrom('evolution_analyses').selectAll().orderBy('claimed_at', 'desc').limit(limit).execute();
}
