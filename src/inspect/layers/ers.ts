import type { Layer } from '../types.js';

/**
 * Layer 8 reads the entity risk score the caller looked up before inspection.
 * A shadow-banned entity (SPEC §1: score ≥ 0.75) is never forwarded: the decision blocks it.
 * The score itself is kept and updated outside the pure pipeline (src/ers/).
 */
export const ersLayer: Layer = {
  name: 'ers',
  run(ctx) {
    if (ctx.ers.shadowBanned) {
      // Score 0: the ban decides the action, while risk_level keeps describing the content itself,
      // which is what the caller's ERS update must record (so a banned entity sending clean text recovers).
      ctx.flags.push({ layer: 'ers', type: 'shadow_banned', score: 0, detail: `entity risk ${ctx.ers.score.toFixed(2)}` });
    }
  },
};
