import type { RiskLevel } from '../inspect/types.js';

/**
 * Entity risk score (SPEC §1 layer 8): a time-decayed ratio of risk to *all* requests.
 *   R ← R·d + risk(verdict),  N ← N·d + 1,  d = 2^(−Δt / halfLife),  score = R / max(N, PRIOR)
 * The denominator counts every request, so one attack among many clean requests barely moves the score,
 * and the floor PRIOR stops a handful of blocked requests from banning a new entity (4 blocks in a row are
 * needed). Both sums decay: a ban holds for about two half-lives of silence, then lifts.
 */
export const SHADOW_BAN_THRESHOLD = 0.75;
export const PRIOR = 5;

export const RISK_WEIGHT: Record<RiskLevel, number> = { LOW: 0, MEDIUM: 0.25, HIGH: 0.8, BLOCK: 1 };

export interface ErsCounters {
  risk: number;
  requests: number;
  /** Epoch ms of the last update. */
  at: number;
}

export function decay(c: ErsCounters, now: number, halfLifeMs: number): ErsCounters {
  const d = Math.pow(2, -Math.max(0, now - c.at) / halfLifeMs);
  return { risk: c.risk * d, requests: c.requests * d, at: now };
}

export function scoreOf(c: ErsCounters): number {
  return c.risk / Math.max(c.requests, PRIOR);
}

export function update(c: ErsCounters, level: RiskLevel, now: number, halfLifeMs: number): ErsCounters {
  const d = decay(c, now, halfLifeMs);
  return { risk: d.risk + RISK_WEIGHT[level], requests: d.requests + 1, at: now };
}
