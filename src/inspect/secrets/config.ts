import data from '../../../config/secrets.json' with { type: 'json' };

/**
 * Data of the secret redactor (layer 3): credential formats, key-name vocabulary,
 * placeholder markers, PII tables and scores. Sources are cited in the JSON file.
 */
export interface TokenRuleData {
  type: string;
  anchors: string[];
  pattern: string;
  validator?: string;
  group?: boolean;
  scan?: boolean;
  source: string;
}

export const TOKEN_RULES: readonly TokenRuleData[] = data.tokenRules;
export const KEYWORDS = data.keywords;
export const KEYED_RULES = data.keyedRules;
export const PLACEHOLDERS = data.placeholders;
export const PII_DATA = data.pii;
export const SCORES = data.scores;
export const LIMITS = data.limits;
