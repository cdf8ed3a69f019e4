import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { importedCounts, insertRule, rulesInForce } from '../storage/evolved-rules.js';
import type { Database } from '../storage/schema.js';
import type { ActiveRules } from './active-rules.js';
import type { AnalysisPool } from './analysis-pool.js';
import type { Candidate } from './gate.js';
import { IMPORTED_SOURCE } from '../tunnels/rules.js';
import { newRuleId } from './loop.js';

export interface ImportDeps {
  db: Kysely<Database>;
  analysis: AnalysisPool;
  rules: ActiveRules;
  enabled: boolean;
  mode: 'auto' | 'review';
  maxRules: number;
  /** Imported rules (active or pending) allowed gateway-wide, per tenant and per tunnel; apart from `maxRules`. */
  quota: { total: number; perTenant: number; perTunnel: number };
  maxPatternChars: number;
  logger: Logger;
}

export interface ImportOrigin {
  tunnelId: string;
  peerSyndicateId: string;
}

export type ImportAnswer = { imported: true; ruleId: string; status: 'active' | 'pending' } | { imported: false; reason: string };

/**
 * A rule from a peer gateway (issue 14) goes through this gateway's own validation gate (benign corpus, hostile
 * shapes, RE2, vocabulary, duplicates), in the analysis thread, before it can go live. It applies to the receiving
 * tenant only (the tunnel is that tenant's), carries its origin (source `syndicate`, the tunnel and peer in the
 * explanation), can be disabled with /admin/rules like any rule, and is never exported again.
 */
export function importRule(deps: ImportDeps, tenantId: string, candidate: Candidate, origin: ImportOrigin): Promise<ImportAnswer> {
  // One import of a tenant at a time in this process: the quota is counted and the rule stored without a concurrent
  // import of the same tenant slipping in between (the gate runs in one analysis thread anyway).
  const previous = chains.get(tenantId) ?? Promise.resolve();
  const next = previous.catch(() => {}).then(() => importOne(deps, tenantId, candidate, origin));
  const tail = next.catch(() => {});
  chains.set(tenantId, tail);
  void tail.then(() => {
    if (chains.get(tenantId) === tail) chains.delete(tenantId);
  });
  return next;
}

const chains = new Map<string, Promise<unknown>>();

async function importOne(deps: ImportDeps, tenantId: string, candidate: Candidate, origin: ImportOrigin): Promise<ImportAnswer> {
  if (!deps.enabled) return { imported: false, reason: 'evolution_disabled' };
  // Imports have budgets of their own: a peer filling them never stops this gateway evolving rules for any tenant.
  const explanation = `imported over tunnel ${origin.tunnelId} from syndicate ${origin.peerSyndicateId}`;
  const counts = await importedCounts(deps.db, tenantId, explanation);
  if (counts.tunnel >= deps.quota.perTunnel) return { imported: false, reason: 'tunnel_import_quota' };
  if (counts.tenant >= deps.quota.perTenant) return { imported: false, reason: 'tenant_import_quota' };
  if (counts.total >= deps.quota.total) return { imported: false, reason: 'import_limit_reached' };
  const inForce = [...(await rulesInForce(deps.db, deps.maxRules, 'local')), ...(await rulesInForce(deps.db, deps.quota.perTenant, 'imported')).filter((r) => r.tenantId === tenantId)];
  const existing = inForce
    .filter((r) => r.tenantId === undefined || r.tenantId === tenantId)
    .map((r) => ({ id: r.id, kind: r.kind, pattern: r.pattern, ...(r.family ? { family: r.family } : {}) }));
  const outcome = await deps.analysis.run({ text: '', kind: 'prompt', existing, maxPatternChars: deps.maxPatternChars, imported: candidate });
  if (!outcome.accepted) {
    // Only the reason's code: a detail (an RE2 error message) could quote part of the pattern.
    const reason = (outcome.refusals[0] ?? 'refused').split(':')[0];
    deps.logger.info({ event: 'rule_import_refused', reason, tunnel: origin.tunnelId, tenant: tenantId }, 'imported rule refused by the gate');
    return { imported: false, reason };
  }
  const c = outcome.accepted;
  const id = newRuleId();
  const status = deps.mode === 'review' ? 'pending' : 'active';
  await insertRule(deps.db, {
    id,
    kind: c.kind,
    pattern: c.pattern,
    family: c.family ?? null,
    status,
    source: IMPORTED_SOURCE,
    model: null,
    attack_type: null,
    explanation,
    content_hash: createHash('sha256').update(`${IMPORTED_SOURCE}\n${origin.tunnelId}\n${c.kind}\n${c.pattern}`).digest('hex'),
    tenant_id: tenantId,
    scope: 'tenant',
    reason: null,
    created_at: Date.now(),
  });
  deps.logger.info({ event: 'rule_imported', rule: id, status, kind: c.kind, tunnel: origin.tunnelId, tenant: tenantId }, 'rule imported from a syndicate peer');
  // Debounced: a burst of imports reloads the rule set (and empties the verdict cache) once.
  if (status === 'active') deps.rules.changedSoon();
  return { imported: true, ruleId: id, status };
}
