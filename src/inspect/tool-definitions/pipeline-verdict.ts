import decision from '../../../config/decision.json' with { type: 'json' };
import config from '../../../config/mcp-tool-definitions.json' with { type: 'json' };
import type { Verdict } from '../types.js';

const MODEL_FLAGS = new Set(config.pipeline.modelFlagTypes);
const ALWAYS_BLOCK = new Set(decision.alwaysBlockTypes);
const HIGH = decision.thresholds.high;

/** The operating point: the injection model's score from which its block of a field counts without a cue. */
export interface Tuning {
  modelAloneMinScore: number;
}
export const DEFAULT_TUNING: Tuning = { modelAloneMinScore: config.pipeline.modelAloneMinScore };

/**
 * Whether the pipeline's block of one field counts, and a metadata-only detail. The injection model was trained on
 * prompts and documents: on a tool list it takes short imperatives ('Create a new repository in your account') for
 * instructions. Its block counts at the BLOCK level, or when a cue of this judge in the same field corroborates it;
 * a block raised by any other flag (patterns, structural detectors, exfiltration or phishing links) counts as it is.
 */
export function pipelineFinding(verdict: Verdict, corroborated: boolean, tuning: Tuning = DEFAULT_TUNING): string | undefined {
  if (verdict.action !== 'block') return undefined;
  const blockers = verdict.flags.filter((f) => ALWAYS_BLOCK.has(f.type) || (f.layer !== 'secrets' && f.score >= HIGH));
  const byOthers = blockers.filter((f) => !MODEL_FLAGS.has(f.type));
  const modelTop = Math.max(0, ...blockers.filter((f) => MODEL_FLAGS.has(f.type)).map((f) => f.score));
  if (byOthers.length === 0 && modelTop < tuning.modelAloneMinScore && !corroborated) return undefined;
  const types = [...new Set(blockers.map((f) => f.type))].slice(0, 4).join(', ');
  return `pipeline ${verdict.risk_level}: ${types || 'blocked'}`;
}
