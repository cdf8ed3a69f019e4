import config from '../../../../config/action-effects.json' with { type: 'json' };
import { isObject, parseArguments, type Json } from './json.js';

/**
 * The leaves of a tool call's JSON arguments, for reading them by meaning rather than by the tool's name: each
 * scalar with the normalised keys on its path (lower case, no `_`, `-`, `.`). Arguments sent as a JSON string
 * inside the envelope (OpenAI `tool_calls[].function.arguments`) are opened in place. Bounded by `maxLeaves`.
 */

export interface Leaf {
  path: string[];
  key: string;
  value: string | number | boolean;
}

export const normKey = (k: string): string => k.toLowerCase().replace(/[_.\-\s]/g, '');
const MAX_DEPTH = 12;

export function leavesOf(root: Json): Leaf[] {
  const out: Leaf[] = [];
  const walk = (v: Json, path: string[], depth: number): void => {
    if (out.length >= config.maxLeaves || depth > MAX_DEPTH) return;
    if (v === null) return;
    if (typeof v === 'string') {
      const inner = /^\s*[{[]/.test(v) ? parseArguments(v) : undefined;
      if (inner !== undefined && (isObject(inner) || Array.isArray(inner))) walk(inner, path, depth + 1);
      else out.push({ path, key: path[path.length - 1] ?? '', value: v });
    } else if (typeof v === 'number' || typeof v === 'boolean') out.push({ path, key: path[path.length - 1] ?? '', value: v });
    else if (Array.isArray(v)) for (const item of v.slice(0, 64)) walk(item, path, depth + 1);
    else for (const [k, item] of Object.entries(v)) walk(item, [...path, normKey(k)], depth + 1);
  };
  walk(root, [], 0);
  return out;
}

const set = (xs: readonly string[]): ReadonlySet<string> => new Set(xs.map((x) => normKey(x)));
export const words = {
  account: set(config.accountKeys),
  forward: set(config.forwardKeys),
  rule: set(config.ruleKeys),
  singleMessage: set(config.singleMessageKeys),
  deleteKeys: set(config.deleteKeys),
  recipient: set(config.recipientKeys),
  visibility: set(config.visibilityKeys),
  amount: set(config.amountKeys),
  currency: set(config.currencyKeys),
  rawAccount: set(config.rawAccountKeys),
  newPayee: set(config.newPayeeKeys),
  knownPayee: set(config.knownPayeeKeys),
};
export const deleteValues: ReadonlySet<string> = new Set(config.deleteValues.map((v) => v.toLowerCase()));
export const publicValues: ReadonlySet<string> = new Set(config.publicValues.map((v) => normKey(v)));

/** A whole-word regex over any of `list` (phrases allowed), case-insensitive. */
function wordRegex(list: readonly string[]): RegExp {
  const alts = list.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).sort((a, b) => b.length - a.length);
  return new RegExp(`(?:^|[^a-z0-9])(?:${alts.join('|')})(?=$|[^a-z0-9])`, 'i');
}
export const ruleWords = wordRegex(config.ruleWords);
export const paymentWords = wordRegex(config.paymentWords);
export const dataNouns = wordRegex(config.dataNouns);
export const anyDataNouns = wordRegex([...config.dataNouns, ...config.weakDataNouns]);
export const bulkWords = wordRegex(config.bulkWords.filter((w) => w !== '*'));

/** True for a leaf set to true ("true", 1 and "yes" count). */
export function isTrue(v: Leaf['value']): boolean {
  return v === true || v === 1 || (typeof v === 'string' && /^(true|yes|1|on)$/i.test(v.trim()));
}

/** The text of every key and short string value: where a tool's name, action or a selection is written. */
export function textOf(leaves: Leaf[]): string {
  let out = '';
  for (const l of leaves) {
    out += ` ${l.path.join(' ')} `;
    if (typeof l.value === 'string' && l.value.length <= 512) out += l.value;
    if (out.length > 16384) break;
  }
  return out;
}
