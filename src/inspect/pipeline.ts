import { LAYERS } from './registry.js';
import type { CompiledRules } from './rules/compile.js';
import { runLayers } from './run-layers.js';
import type { InspectionRequest, Layer, Verdict } from './types.js';

export { createContext } from './run-layers.js';

/**
 * Runs the nine layers in SPEC §1 order and returns the verdict.
 * A layer that throws propagates: the caller must answer 5xx, never "allowed".
 * `rules` (the evolution loop's active rules, src/inspect/rules/) add their flags just before the decision layer.
 */
export function inspect(req: InspectionRequest, layers: readonly Layer[] = LAYERS, rules?: CompiledRules): Verdict {
  return runLayers(req, layers, rules);
}
