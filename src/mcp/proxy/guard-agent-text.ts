import { redact } from '../../inspect/redact.js';
import type { RelayContext } from './context.js';
import { CODES, errorResponse, isResponse, verdictError, type Message } from './jsonrpc.js';
import { freeTextSlots, MAX_SLOTS, type Slots } from './text-slots.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The agent's answers to these server requests are judged like content addressed to a model, not only for credentials. */
const JUDGED_ANSWERS = new Set(['sampling/createMessage']);

/** Blocked for what it says, not only for a credential in it (those are redacted): a HIGH flag of another layer. */
const unsafe = (v: { action: string; flags: { layer: string; score: number }[] }): boolean => v.action === 'block' && v.flags.some((f) => f.layer !== 'secrets' && f.score >= 0.75);

export type AgentTextOutcome = { forward: Message } | { refuse: Message };

/**
 * Guard point [B] for everything the agent sends besides a tools/call (which guard-agent.ts judges by its effect):
 *
 * - every message: credentials in any free text (params, or the result of an answer) are redacted before it reaches
 *   the server, whatever the message, so an agent never hands a server a key it happened to hold;
 * - the agent's answer to a server's sampling request (its model's output, which the server will act on): an
 *   injection withholds it, and the server gets a JSON-RPC error -32051 in its place;
 * - a cancellation's reason: an unsafe one is removed, the cancellation itself still reaches the server.
 *
 * A message that cannot be judged is not sent as it is: a request or notification is refused (-32050), an answer
 * replaced by an error for the server.
 */
export async function guardAgentText(ctx: RelayContext, message: Message): Promise<AgentTextOutcome> {
  const answered = isResponse(message) ? takeServerRequest(ctx, message) : undefined;
  const holder = isResponse(message) ? message.result : message.params;
  if (!isObj(holder)) return { forward: message };
  const method = answered ?? (typeof message.method === 'string' ? message.method : 'other');
  const acc: Slots = { slots: [], uninspected: 0 };
  freeTextSlots(holder, 'tool_result', 'tool', acc);
  if (acc.slots.length === 0) return { forward: message };
  const fail = (reason: string) => {
    ctx.count(method, 'blocked', { reason, direction: 'agent' });
    if (isResponse(message)) return { forward: errorResponse(message.id, CODES.WITHHELD, `Bastion withheld the agent's answer: ${reason.replace(/_/g, ' ')}.`) };
    return { refuse: verdictError((message.id ?? null) as string | number | null, CODES.REFUSED, `Bastion did not send this message: ${reason.replace(/_/g, ' ')}.`, { request_id: ctx.request.id, action: 'block', stage: 'agent_message', reason }) };
  };
  if (acc.overflow) return fail(`more than ${MAX_SLOTS} text fields`);
  let verdicts;
  try {
    verdicts = await ctx.inspect(acc.slots.map((s) => ({ content: s.text, kind: s.kind, role: s.role })));
  } catch {
    return fail('inspection_failed');
  }
  if (answered !== undefined && JUDGED_ANSWERS.has(answered) && verdicts.some(unsafe)) return fail('unsafe_answer');
  let redacted = false;
  for (const [i, v] of verdicts.entries()) {
    if (v.secrets.length === 0) continue;
    acc.slots[i].set(redact(acc.slots[i].text, v.secrets, []));
    redacted = true;
  }
  if (message.method === 'notifications/cancelled' && verdicts.some(unsafe)) {
    delete holder.reason;
    ctx.count(method, 'redacted', { reason: 'unsafe_reason', direction: 'agent' });
    return { forward: message };
  }
  if (redacted) ctx.count(method, 'redacted', { reasons: verdicts.flatMap((v) => v.secrets.map((s) => s.type)).slice(0, 8), direction: 'agent' });
  return { forward: message };
}

/** What the server had asked, for an answer of the agent; the request is answered now (a second answer is not judged as one). */
function takeServerRequest(ctx: RelayContext, message: Message & { id: string | number }): string | undefined {
  const method = ctx.ledger.server.get(message.id);
  if (method !== undefined) ctx.ledger.server.delete(message.id);
  return method;
}
