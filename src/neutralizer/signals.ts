import patterns from '../../config/injection-patterns.json' with { type: 'json' };
import type { LayerName } from '../inspect/types.js';

/**
 * Every flag the pipeline can put in a verdict, as `layer` + `type` with the category the layer gives it. Types come
 * from the layer sources (src/inspect/layers/*, segments/apply.ts, semantic/structure.ts, phishing/exfil.ts, effects/flags.ts,
 * rules/apply.ts, concepts/flags.ts) and from config/injection-patterns.json. The secrets layer names each finding by its credential or
 * personal-data type (dozens, from the secret scanners), so it is listed as `*`: any secrets-layer type.
 * test/neutralizer/catalogue-agrees-with-the-pipeline.full.test.ts runs the real pipeline over attack and benign corpora
 * and fails if it sees a flag this list does not know.
 */
export interface EmittableSignal {
  layer: LayerName;
  type: string;
  /** The category the flag carries; absent when the flag has none (the daily aggregates then keep its type). */
  category?: string;
}

const of = (layer: LayerName, category: string | undefined, types: readonly string[]): EmittableSignal[] =>
  types.map((type) => ({ layer, type, ...(category ? { category } : {}) }));

/** The ids matchStructure() returns (src/inspect/semantic/structure.ts); reported as semantic pattern flags. */
const STRUCTURE_IDS = [
  'many_shot_compliance', 'many_shot_dialogue', 'refusal_suppression', 'refusal_suppression_weak', 'output_priming',
  'unlocked_persona', 'payload_splitting', 'payload_splitting_weak',
];

export const EMITTABLE: readonly EmittableSignal[] = [
  ...of('topology', 'obfuscation', ['invisible_flood', 'invisible_characters', 'trojan_source', 'bidi_override', 'hidden_tag_characters', 'variation_selector_run', 'mixed_script_words', 'high_entropy_blob']),
  ...of('topology', 'anomaly', ['control_characters', 'terminal_escapes', 'character_flood', 'deep_nesting', 'line_flood', 'many_shot_dialogue', 'token_flood']),
  ...of('obfuscation', 'obfuscation', ['decode_budget_exceeded', 'escaped_text', 'spaced_letters', 'leetspeak', 'cipher_text', 'encoded_payload', 'nested_encoding', 'hidden_unicode_text', 'homoglyphs']),
  ...of('secrets', 'exfiltration', ['*', 'secret_exfiltration']),
  ...of('semantic', 'injection', ['prompt_injection', 'indirect_injection', ...patterns.patterns.map((p) => p.id), ...STRUCTURE_IDS, 'evolved_rule', 'jailbreak']),
  ...of('semantic', 'harmful_content', ['harmful_request']),
  ...of('causal', 'injection', ['addressed_instruction']),
  ...of('semantic', 'dangerous_action', ['dangerous_command', 'dangerous_command_indicator', 'dangerous_effect']),
  ...of('phishing', 'exfiltration', ['markdown_image_exfiltration', 'image_query_data', 'exfiltration_link']),
  ...of('phishing', 'social_engineering', ['deceptive_link', 'phishing_url', 'dangerous_uri']),
  ...of('ers', undefined, ['shadow_banned']),
];

/** Whether the pipeline can emit a flag of this layer and type (a secrets-layer type always can). */
export function emittable(layer: string, type: string): EmittableSignal | undefined {
  return EMITTABLE.find((s) => s.layer === layer && s.type === type) ?? EMITTABLE.find((s) => s.layer === layer && s.type === '*');
}
