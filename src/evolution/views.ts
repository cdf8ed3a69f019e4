import { createContext } from '../inspect/pipeline.js';
import { LAYERS } from '../inspect/registry.js';
import { obfuscationLayer } from '../inspect/layers/obfuscation.js';
import { topologyLayer } from '../inspect/layers/topology.js';
import type { Kind, View } from '../inspect/types.js';

/**
 * The readings of a text that evolved rules are matched against: the content and the decoded views of layer 2,
 * exactly as the pipeline produces them (the validation gate must see what the live pipeline will see).
 */
export function viewsOf(text: string, kind: Kind): View[] {
  const ctx = createContext({ content: text, kind });
  topologyLayer.run(ctx);
  if (!ctx.halted) obfuscationLayer.run(ctx);
  return ctx.views;
}

export interface PreparedAttack {
  views: View[];
  /** The operative cause the causal arbiter isolated, else the chunk the semantic guard found most attack-like. */
  hint?: string;
}

/**
 * Runs the static layers (not ERS or the decision) over an attack for its views and the semantic guard's focus.
 * Typed placeholders lose their type first (`[REDACTED:email]` → `[REDACTED]`): the type would read as a word of the
 * text (`email`) that the live content does not have there, and `redacted` itself never enters a rule.
 */
export function prepareAttack(redacted: string, kind: Kind): PreparedAttack {
  const text = redacted.replace(/\[REDACTED:[^\]\s]{1,64}\]/g, '[REDACTED]');
  // neutralizeCauses: the causal arbiter then reports the operative span (an instruction planted in an e-mail, say).
  const ctx = createContext({ content: text, kind, policy: { neutralizeCauses: true } });
  for (const layer of LAYERS) {
    if (layer.name === 'ers' || layer.name === 'decision') break;
    if (ctx.halted) break;
    layer.run(ctx);
  }
  const cause = ctx.neutralize.map((span) => text.slice(span.start, span.end)).join('\n');
  if (cause.trim().length > 0 && cause.length < text.length) return { views: ctx.views, hint: cause };
  const s = ctx.signals;
  const view = ctx.views[s['semantic.view_index'] ?? -1];
  const start = s['semantic.chunk_start'];
  const end = s['semantic.chunk_end'];
  const hint = view && start !== undefined && end !== undefined && end > start ? view.text.slice(start, end) : undefined;
  return { views: ctx.views, ...(hint && hint.length < view.text.length ? { hint } : {}) };
}
