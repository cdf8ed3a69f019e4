import { riskOf } from '../inspect/layers/decision.js';
import { isModelReading } from '../inspect/model-reading.js';
import type { Flag, Kind, Role, Verdict } from '../inspect/types.js';

/**
 * The user's own request in an agent conversation, refused by nothing but the statistical prompt model. Short agent
 * requests that name a recipient and an action ("send the notes to mehmet.kaya@ortak-firma.example", "report this
 * gift-card mail to security@… and delete it") read as injections to a model trained on injections that exfiltrate;
 * no pattern, jailbreak framing, harmful intent, structure detector or credential says so. Where the tenant's flow
 * policy contains the conversation (flows on, action block or require_approval), what such a request does outside is
 * decided by the flow policy, which honours the user's choice of destination; the reading is reported, not refused.
 *
 * Only a typed request: at most MAX_TYPED_CHARS characters (a pasted document is judged as today), in a request that
 * offers the model tools, and only while the tenant's category action for `injection` is not an explicit `block`.
 */

export const MAX_TYPED_CHARS = 600;

const blocking = (f: Flag): boolean => riskOf(f.score) === 'HIGH' || riskOf(f.score) === 'BLOCK';

export interface TurnText {
  content: string;
  kind?: Kind;
  role?: Role;
}

/** Whether the block of this text may be reported instead, by the rule above (the caller checks containment and tools). */
export function modelOnlyUserTurn(text: TurnText, verdict: Pick<Verdict, 'action' | 'flags' | 'secrets'>, categoryActions: Readonly<Record<string, string>>): boolean {
  if (text.role !== 'user' || (text.kind ?? 'prompt') !== 'prompt' || text.content.length > MAX_TYPED_CHARS) return false;
  if (verdict.action !== 'block' || categoryActions.injection === 'block') return false;
  const blockers = verdict.flags.filter(blocking);
  return blockers.length > 0 && blockers.every((f) => isModelReading(f, 'prompt_injection'));
}

/** The summary counts released turns by this category (src/admin/portal/stats.ts). */
export const USER_TURN_CATEGORY = 'user_turn_reported';

/** The flag a released user turn carries: MEDIUM, counted in the tenant's summary as `quarantined.user_turns`. */
export const USER_TURN_FLAG: Flag = { layer: 'quarantine' as Flag['layer'], type: 'model_only_user_turn', score: 0.5, category: USER_TURN_CATEGORY };

/** Whether the request offers the model tools (chat `tools`/`functions`, Messages and Responses `tools`). */
export function offersTools(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const { tools, functions } = body as { tools?: unknown; functions?: unknown };
  return (Array.isArray(tools) && tools.length > 0) || (Array.isArray(functions) && functions.length > 0);
}
