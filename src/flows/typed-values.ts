import decisionConfig from '../../config/decision.json' with { type: 'json' };
import { isObject, parseArguments } from '../inspect/effects/args/json.js';
import { leavesOf } from '../inspect/effects/args/leaves.js';
import { RAW_ACCOUNT_DETAIL, rawAccountValues } from '../inspect/effects/args/payments.js';
import { riskOf } from '../inspect/layers/decision.js';
import { redact } from '../inspect/redact.js';
import type { Flag, SecretFinding, TenantPolicy } from '../inspect/types.js';
import { destinationUnits } from './destinations.js';
import type { FlowState } from './state.js';
import type { Hasher } from './values.js';

/**
 * What the content judge does to a tool call, corrected by what the flow state knows the user chose (docs/FLOWS.md
 * "Values the user typed"). Two corrections, both only towards the user's own words:
 * - Redaction never rewrites a value the user or the app typed (a phone number the user gave, passed to the
 *   messaging tool they asked for): the call would silently go somewhere else. Personal data that came from tool
 *   results is still redacted on its way out.
 * - The effect judge's "payment to raw account details" defers to the flow state: when every raw account value of
 *   the call was typed by the user or the app, or found in the user's own records, that finding no longer blocks.
 *   Any other blocking finding, a credential under secret_mode "block", a shadow-banned caller, or a value the state
 *   cannot show was chosen keeps the block (fail closed). The flow decision then judges the call as any other sink.
 */

export interface CallVerdict {
  action: 'allow' | 'redact' | 'block';
  allowed: boolean;
  redacted_content: string;
  flags: Flag[];
  secrets: SecretFinding[];
  ers?: { shadow_banned: boolean };
}

export type DetectionPolicy = Pick<TenantPolicy, 'strict' | 'categoryActions' | 'secretMode'>;

const ALWAYS_BLOCK = new Set(decisionConfig.alwaysBlockTypes);
const REDACTION_LAYERS = new Set<string>(decisionConfig.redactionLayers);

/** Every value in `text` the state shows was typed by the user or the app (each destination unit of it named). */
export function typedByUser(state: FlowState, hash: Hasher, text: string): boolean {
  const units = destinationUnits(text);
  return units.length > 0 && units.every((u) => u.keys.some((k) => state.named.has(hash(k))));
}

const chosenByUser = (state: FlowState, hash: Hasher, text: string): boolean =>
  destinationUnits(text).every((u) => u.keys.length > 0 && u.keys.some((k) => state.named.has(hash(k)) || state.trusted.has(hash(k))));

export function isRawAccountFlag(flag: Flag): boolean {
  return flag.type === 'dangerous_effect' && flag.detail !== undefined && flag.detail.startsWith('payment_new_payee (') && flag.detail.endsWith(`): ${RAW_ACCOUNT_DETAIL}`);
}

/**
 * Whether anything but the `waived` findings still blocks the call: a credential under secret_mode "block", an
 * always-blocking type, or a finding the tenant's category actions or its risk make blocking.
 */
export function blocksBesides(verdict: CallVerdict, policy: DetectionPolicy, waived: (f: Flag) => boolean): boolean {
  if (verdict.secrets.length > 0 && policy.secretMode === 'block') return true;
  return verdict.flags.some((f) => {
    if (waived(f)) return false;
    if (ALWAYS_BLOCK.has(f.type)) return true;
    if (REDACTION_LAYERS.has(f.layer)) return false;
    const risk = riskOf(f.score);
    const action = f.category ? policy.categoryActions[f.category] : undefined;
    if (action === 'flag' || risk === 'LOW') return false;
    return action === 'block' || action === 'redact' || risk === 'HIGH' || risk === 'BLOCK' || policy.strict;
  });
}

/** The verdict with the raw-account payment finding waived when the flow state shows the details were chosen. */
export function waiveRawAccountBlock<V extends CallVerdict>(verdict: V, content: string, state: FlowState, hash: Hasher, policy: DetectionPolicy): V {
  if (verdict.action !== 'block' || verdict.ers?.shadow_banned || !verdict.flags.some(isRawAccountFlag)) return verdict;
  if (blocksBesides(verdict, policy, isRawAccountFlag)) return verdict;
  const parsed = parseArguments(content);
  if (!isObject(parsed) && !Array.isArray(parsed)) return verdict;
  const raw = rawAccountValues(leavesOf(parsed));
  if (raw.length === 0 || !raw.every((v) => chosenByUser(state, hash, v))) return verdict;
  const redacting = verdict.secrets.length > 0;
  return { ...verdict, allowed: true, action: redacting ? 'redact' : 'allow', redacted_content: redacting ? redact(content, verdict.secrets, []) : content };
}

/** The verdict with the redactions of values the user or the app typed undone (the others kept). */
export function keepTypedValues<V extends CallVerdict>(verdict: V, content: string, state: FlowState, hash: Hasher): V {
  if (verdict.action !== 'redact' || verdict.secrets.length === 0) return verdict;
  // A redaction that also neutralised spans (the causal arbiter's) is kept as the pipeline wrote it.
  if (redact(content, verdict.secrets, []) !== verdict.redacted_content) return verdict;
  const kept = verdict.secrets.filter((s) => !typedByUser(state, hash, content.slice(s.start, s.end)));
  if (kept.length === verdict.secrets.length) return verdict;
  if (kept.length === 0) return { ...verdict, action: 'allow', redacted_content: content };
  return { ...verdict, redacted_content: redact(content, kept, []) };
}
