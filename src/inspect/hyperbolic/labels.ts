import mapping from '../../../config/attack-mapping.json' with { type: 'json' };

/**
 * Threat-family labels for training and evaluation: which taxonomy node a labelled item belongs to.
 * Dev categories map directly; ATT&CK technique ids map through config/attack-mapping.json (source: MITRE ATT&CK).
 */

const tacticToLeaf: Record<string, string> = mapping.tacticToLeaf;
const techniqueTactic: Record<string, string> = mapping.techniqueTactic;
const leafOverrides: Record<string, string> = mapping.leafOverrides;

const TECHNIQUE = /^T\d{4}(\.\d{3})?$/;

/** Taxonomy path for an ATT&CK technique id, or `dangerous_action` when the id is unknown. */
export function familyOfTechnique(id: string): string {
  const parent = id.split('.')[0];
  const leaf = leafOverrides[id] ?? leafOverrides[parent] ?? tacticToLeaf[techniqueTactic[parent] ?? ''];
  return leaf ? `dangerous_action/${leaf}` : 'dangerous_action';
}

const CATEGORY_FAMILY: Record<string, string> = {
  jailbreak: 'injection/role_play',
  extraction: 'injection/prompt_extraction',
  indirect_injection: 'injection/indirect_tool_result',
  phishing: 'social_engineering/phishing',
  secret: 'exfiltration/secret_leak',
};

/** The family an attack item is labelled with, from its dataset category (undefined for benign items). */
export function familyOfCategory(category: string, label: string): string | undefined {
  if (label !== 'attack') return undefined;
  if (TECHNIQUE.test(category)) return familyOfTechnique(category);
  return CATEGORY_FAMILY[category];
}
