import type { InspectionContext, Layer, RiskLevel } from '../types.js';

// Provisional decision (issue 3 replaces it with calibrated thresholds and per-category policy).
function riskOf(score: number): RiskLevel {
  if (score >= 0.95) return 'BLOCK';
  if (score >= 0.75) return 'HIGH';
  if (score >= 0.45) return 'MEDIUM';
  return 'LOW';
}

export const decisionLayer: Layer = {
  name: 'decision',
  run(ctx: InspectionContext) {
    const top = ctx.flags.reduce((m, f) => Math.max(m, f.score), 0);
    ctx.risk = riskOf(top);
    const blocking = ctx.risk === 'BLOCK' || ctx.risk === 'HIGH' || (ctx.policy.strict && ctx.risk === 'MEDIUM');
    if (blocking || ctx.ers.shadowBanned) ctx.action = 'block';
    else if (ctx.secrets.length > 0) ctx.action = ctx.policy.secretMode === 'block' ? 'block' : 'redact';
    else ctx.action = 'allow';
  },
};
