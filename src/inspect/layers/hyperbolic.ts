import settings from '../../../config/hyperbolic.json' with { type: 'json' };
import modelFile from '../../../models/hyperbolic.json' with { type: 'json' };
import { loadHyperbolicModel, place, type HyperbolicModel, type HyperbolicModelFile } from '../hyperbolic/classifier.js';
import { featuresOf } from '../semantic/chunk-features.js';
import { featurizeSpan, modelKind, newSink } from '../semantic/featurize.js';
import { indicatorsIn } from '../semantic/shell-features.js';
import type { InspectionContext, Layer } from '../types.js';

/**
 * Layer 5, hyperbolic brain: places risky content in the threat taxonomy (config/taxonomy.json) and writes the
 * most specific node it is confident about to ctx.threatFamily (e.g. `injection/indirect_tool_result`).
 *
 * For tool calls, the curated command indicators that match (config/command-indicators.json, each tied to a
 * leaf) are combined with the geometric posterior as independent evidence.
 *
 * Choice (documented in config/hyperbolic.json `_about`): the layer runs only when an earlier flag already scores
 * at least `minRisk`, and only proposes categories supported by those flags (a semantic-model flag may be placed
 * anywhere the model knows, since the model is category-agnostic). Benign traffic therefore costs nothing and
 * never carries a family; the decision layer clears the family if the final risk is LOW and derives one from the
 * top flag when this layer had nothing to say (e.g. phishing, found later by layer 7).
 */

const SEMANTIC_MODEL_TYPES = new Set(['prompt_injection', 'indirect_injection', 'dangerous_command']);

export function createHyperbolicLayer(model: HyperbolicModel): Layer {
  const sink = newSink();
  return {
    name: 'hyperbolic',
    run(ctx: InspectionContext) {
      const risky = ctx.flags.filter((f) => f.score >= settings.minRisk && f.category);
      if (risky.length === 0) return;
      const allowed = new Set<string>();
      const modelFlags = risky.filter((f) => f.layer === 'semantic' && SEMANTIC_MODEL_TYPES.has(f.type));
      for (const flag of risky) if (flag.category) allowed.add(flag.category);
      if (modelFlags.length > 0) {
        for (const category of ctx.kind === 'tool_call' ? ['dangerous_action', 'exfiltration'] : ['injection', 'exfiltration']) allowed.add(category);
      }
      const signalled = ctx.signals['semantic.view_index'] ?? 0;
      const viewIndex = ctx.views[signalled] ? signalled : 0;
      const view = ctx.views[viewIndex];
      const start = ctx.signals['semantic.chunk_start'] ?? 0;
      const end = ctx.signals['semantic.chunk_end'] ?? view.text.length;
      const chunkEnd = Math.min(end, view.text.length);
      // The semantic layer has just featurized this chunk: its features are reused when still at hand.
      let features = featuresOf(ctx.semanticFeatures, viewIndex, start, chunkEnd);
      if (!features) {
        sink.reset();
        featurizeSpan(view.text, { start, end: chunkEnd }, modelKind(ctx.kind), sink);
        features = { indices: sink.indices, length: sink.length };
      }
      const evidence = new Map<string, number>();
      if (ctx.kind === 'tool_call') {
        // Curated command indicators name the ATT&CK-derived leaf they belong to: direct evidence for it.
        for (const indicator of indicatorsIn(view.text.slice(start, end).toLowerCase())) {
          const path = `dangerous_action/${indicator.leaf}`;
          evidence.set(path, (evidence.get(path) ?? 0) + 1);
        }
      }
      const placement = place(model, features.indices, features.length, allowed, settings.thresholds, evidence);
      if (!placement) return;
      ctx.threatFamily = placement.path;
      ctx.signals['hyperbolic.confidence'] = Math.round(placement.confidence * 1000) / 1000;
      ctx.signals['hyperbolic.depth'] = Math.round(placement.depth * 1000) / 1000;
      // The semantic model is category-agnostic: its flag takes the category the taxonomy placement found.
      for (const flag of modelFlags) flag.category = placement.category;
    },
  };
}

export const hyperbolicLayer: Layer = createHyperbolicLayer(loadHyperbolicModel(modelFile as unknown as HyperbolicModelFile));
