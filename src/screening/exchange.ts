import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Flag, RiskLevel, SecretFinding, Verdict } from '../inspect/types.js';
import { RISK_LEVELS } from '../inspect/types.js';
import type { StatVerdict } from '../storage/daily-stats.js';
import { familyLabel, metricsOf } from '../telemetry/metrics.js';

/**
 * Where a verdict was reached: `filter` (a /filter item: each counts on its own), or a guard point of one guarded
 * exchange: the request a client sends (`request`), a whole answer (`response`), a streamed answer (`stream`), an
 * agent's MCP message (`mcp_call`) or a server's (`mcp_result`).
 */
export type GuardPoint = 'filter' | 'request' | 'response' | 'stream' | 'mcp_call' | 'mcp_result';
export const GUARD_POINTS: readonly GuardPoint[] = ['filter', 'request', 'response', 'stream', 'mcp_call', 'mcp_result'];

/** What an answer's guard did when it was not a judge() verdict: a leak redacted or cut, an uninspectable part refused. */
export interface Outcome {
  action: 'allow' | 'redact' | 'block';
  risk_level: RiskLevel;
  reasons: readonly { layer: Flag['layer'] | string; type: string }[];
}

const ACTIONS = ['allow', 'redact', 'block'] as const;
// Bounds one exchange's memory whatever its length (a long stream of tool calls): the counts stay exact, flags beyond are dropped.
const MAX_FLAGS = 256;
const MAX_SECRETS = 256;

interface Tally {
  action: number;
  risk: number;
  point: GuardPoint;
  family?: string;
  flags: Flag[];
  secrets: SecretFinding[];
  shadowBanned: boolean;
  /** Outcome reasons already counted (an answer's guard may report the same cumulative outcome again). */
  seen: Set<string>;
}

const tallies = new WeakMap<FastifyRequest, Tally>();

/**
 * One guarded exchange (a chat, Responses, Messages, embeddings or MCP request with its answer) counts once in the
 * tenant's statistics and the metrics, whatever number of texts, tool calls and stream events were judged in it: its
 * action is the worst reached at any guard point (a tool call removed from the answer makes the exchange blocked),
 * its flags those of every verdict. Recorded when the reply closes (finished, cut or abandoned).
 */
export function countVerdicts(request: FastifyRequest, point: GuardPoint, verdicts: readonly (Verdict & { ers?: { shadow_banned: boolean } })[]): void {
  if (point === 'filter') {
    countEach(request, verdicts);
    return;
  }
  const tally = tallyOf(request, point);
  for (const v of verdicts) {
    fold(tally, point, v.action, v.risk_level, v.action === 'block' ? v.threat_family : undefined);
    absorb(tally, v);
  }
}

/**
 * What verdicts found (flags, credentials, risk), without their action: for a guard that settles the action itself
 * afterwards (the MCP proxy redacts the credential a verdict blocked on, or refuses a call no verdict blocked), which
 * then reports it with countOutcome. A threat family is kept for the case the guard's action is a block.
 */
export function countFindings(request: FastifyRequest, point: GuardPoint, verdicts: readonly (Verdict & { ers?: { shadow_banned: boolean } })[]): void {
  const tally = tallyOf(request, point);
  for (const v of verdicts) {
    fold(tally, point, 'allow', v.risk_level, undefined);
    if (v.action === 'block' && tally.family === undefined) tally.family = v.threat_family;
    absorb(tally, v);
  }
}

function absorb(tally: Tally, v: Verdict & { ers?: { shadow_banned: boolean } }): void {
  for (const f of v.flags) if (tally.flags.length < MAX_FLAGS) tally.flags.push(f);
  for (const s of v.secrets) if (tally.secrets.length < MAX_SECRETS) tally.secrets.push(s);
  if (v.ers?.shadow_banned) tally.shadowBanned = true;
}

/** An answer's outcome that no judge() verdict carries (leaks redacted or cut, parts refused); each reason counts once. */
export function countOutcome(request: FastifyRequest, point: GuardPoint, outcome: Outcome): void {
  const tally = tallyOf(request, point);
  fold(tally, point, outcome.action, outcome.risk_level, undefined);
  for (const r of outcome.reasons) {
    const key = `${r.layer}\0${r.type}`;
    if (tally.seen.has(key) || tally.flags.length >= MAX_FLAGS) continue;
    tally.seen.add(key);
    tally.flags.push({ layer: r.layer as Flag['layer'], type: r.type, score: 1 });
  }
}

/** Records each request's exchange when its reply closes (the data plane's listener). */
export function registerExchangeStats(app: FastifyInstance): void {
  app.lifecycle.closed.push(recordExchange);
  const { services } = app;
  // Every guard point and action starts at 0 (families and tenants are only known once seen): a dashboard panel
  // reads 0 before the first block, not "No data".
  if (!services.config.metricsEnabled) return;
  const metrics = metricsOf(services);
  if (metrics.tenantLabel) return;
  for (const point of GUARD_POINTS) for (const action of ACTIONS) metrics.screened.inc({ point, action, family: 'none' }, 0);
}

function recordExchange(request: FastifyRequest): void {
  const tally = tallies.get(request);
  if (!tally) return;
  tallies.delete(request);
  const action = ACTIONS[tally.action];
  const verdict: StatVerdict = {
    allowed: action !== 'block',
    action,
    risk_level: RISK_LEVELS[tally.risk],
    flags: tally.flags,
    secrets: tally.secrets,
    ers: { shadow_banned: tally.shadowBanned },
  };
  observe(request, tally.point, action, tally.family);
  if (request.principal) request.server.services.stats.add(request.principal.tenantId, [verdict]);
}

/** /filter and /filter/batch: every item is a request of its own (as the monthly quota counts them). */
function countEach(request: FastifyRequest, verdicts: readonly (Verdict & { ers?: { shadow_banned: boolean } })[]): void {
  for (const v of verdicts) observe(request, 'filter', v.action, v.action === 'block' ? v.threat_family : undefined);
  if (request.principal) request.server.services.stats.add(request.principal.tenantId, verdicts);
}

function observe(request: FastifyRequest, point: GuardPoint, action: string, family: string | undefined): void {
  const { services } = request.server;
  if (!services.config.metricsEnabled) return;
  const metrics = metricsOf(services);
  const tenant = metrics.tenantLabel ? { tenant: request.principal?.tenantId ?? 'none' } : {};
  metrics.screened.inc({ point, action, family: familyLabel(action === 'block' ? family : undefined), ...tenant });
}

function tallyOf(request: FastifyRequest, point: GuardPoint): Tally {
  let tally = tallies.get(request);
  if (!tally) tallies.set(request, (tally = { action: 0, risk: 0, point, flags: [], secrets: [], shadowBanned: false, seen: new Set() }));
  return tally;
}

function fold(tally: Tally, point: GuardPoint, action: Outcome['action'], risk: RiskLevel, family: string | undefined): void {
  const rank = ACTIONS.indexOf(action);
  // The point that decided is where the exchange first reached its final action (a block in the answer, not the clean request).
  if (rank > tally.action) {
    tally.action = rank;
    tally.point = point;
  }
  if (rank === 2 && tally.family === undefined && family) tally.family = family;
  tally.risk = Math.max(tally.risk, RISK_LEVELS.indexOf(risk));
}
