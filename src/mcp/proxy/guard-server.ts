import { judge, type Judgement } from '../../screening/judge.js';
import { countFindings } from '../../screening/exchange.js';
import { quarantineBlocked, type LocatedText } from '../../screening/quarantine-guard.js';
import { redact } from '../../inspect/redact.js';
import type { Verdict } from '../../inspect/types.js';
import { tenantPolicies } from '../../policy/tenant-policies.js';
import { summarise } from '../../proxy/chat/verdict-summary.js';
import { writePins } from '../../storage/mcp-pins.js';
import { allowedToolsOf } from '../../storage/mcp-servers.js';
import type { RelayContext } from './context.js';
import { judgeDefinitions } from './definition-guard.js';
import { mcpRegistry } from './registry-cache.js';
import { MAX_OPEN_PER_SESSION } from './session-ledger.js';
import { CODES, errorResponse, isNotification, isRequest, isResponse, MAX_DEPTH, nestsDeeper, verdictError, type Message } from './jsonrpc.js';
import { MAX_SLOTS, notificationSlots, resultSlots, serverRequestSlots, type Slots } from './text-slots.js';
import { definitionOf, reconcile, type ToolDefinition } from './tool-pins.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Most tools one tools/list page may carry; a longer page is withheld whole. */
const MAX_TOOLS = 1000;
/** The decision layer's HIGH threshold (a flag at or above it blocks). */
const HIGH = 0.75;

/** `record`: the message as the server sent it, for the flow state, when what is forwarded was rewritten (quarantine). */
export type ServerOutcome = { forward: Message; record?: Message } | { drop: true; replyUpstream?: Message };

/** Quarantined results as the server sent them, by the rewritten message forwarded in their place. */
const asReceived = new WeakMap<Message, Message>();

/** A tool definition's text judged as untrusted content addressed to the model (no ERS entity: it is the server's). */
export async function inspectDefinitionText(ctx: RelayContext, text: string): Promise<Verdict> {
  const { config } = ctx.request.server.services;
  const [verdict] = await judge(ctx.request, [{ content: text, kind: 'tool_result', role: 'tool' }], { contentLimitBytes: config.contentLimitBytes, record: false, tenantId: ctx.tenantId });
  return verdict;
}

/**
 * Guard point [A], server → agent, one message at a time, whichever stream of the session carries it. Answers to the
 * agent's open requests (session-ledger.ts) are judged by what was asked (tools/list: pinning and the definition
 * guard; any other: every free text of the result like role=tool content, injection withheld, credentials and PII
 * redacted in place); an answer to nothing the agent asked is dropped. Server requests for sampling or
 * elicitation are judged as untrusted prompts; a blocked one never reaches the agent and the server gets an error.
 * Every notification's text is judged like tool output (dropped when unsafe). Other server requests (ping, roots/list)
 * pass, remembered so the agent's answer is judged as one (guard-agent-text.ts).
 */
export async function guardServerMessage(ctx: RelayContext, message: Message): Promise<ServerOutcome> {
  if (nestsDeeper(message)) return tooDeep(ctx, message);
  if (isResponse(message)) {
    // Whatever stream carries it, an answer is judged by what the agent asked; an answer to an id the agent never
    // sent, or already had answered, is dropped. Taken before judging, so a duplicate racing this one finds nothing.
    const open = ctx.ledger.agent.get(message.id);
    if (!open) {
      ctx.count('other', 'withheld', { reason: 'unrequested_answer' });
      return { drop: true };
    }
    ctx.ledger.agent.delete(message.id);
    if (isObj(message.error)) return { forward: await guardError(ctx, message, open.method) };
    if (!isObj(message.result)) return { forward: message };
    if (open.method === 'tools/list') return { forward: await guardToolsList(ctx, message) };
    const guarded = await guardSlots(ctx, message, open.method, resultSlots(message.result), open.tool);
    // The flow state reads a quarantined result as it came: its values still count as untrusted.
    const received = asReceived.get(guarded);
    return received ? { forward: guarded, record: received } : { forward: guarded };
  }
  if (isRequest(message) && (message.method === 'sampling/createMessage' || message.method === 'elicitation/create')) {
    const params = isObj(message.params) ? message.params : {};
    const guarded = await guardSlots(ctx, message, message.method, serverRequestSlots(message.method, params));
    if (guarded !== message) return { drop: true, replyUpstream: errorResponse(message.id, CODES.WITHHELD, 'Bastion withheld this request from the agent: its content was judged unsafe.') };
  }
  if (isRequest(message)) {
    // The agent's answer to it is judged as what it answers (guard-agent.ts): remember what was asked.
    if (ctx.ledger.server.size >= MAX_OPEN_PER_SESSION) return { drop: true, replyUpstream: errorResponse(message.id, CODES.WITHHELD, 'Bastion withheld this request from the agent: too many of its requests are unanswered.') };
    ctx.ledger.server.set(message.id, message.method);
    return { forward: message };
  }
  if (isNotification(message)) {
    // Log and progress messages, cancellation reasons, updated resources' uris can reach the model too; one that is
    // judged unsafe (or cannot be judged) is dropped, a credential in it redacted in place.
    const params = isObj(message.params) ? message.params : {};
    const guarded = await guardSlots(ctx, message, message.method as string, notificationSlots(message.method as string, params));
    return guarded === message ? { forward: message } : { drop: true };
  }
  return { forward: message };
}

/** A message nested too deep to judge: an answer the agent waits for becomes -32051, a server request an error upstream. */
function tooDeep(ctx: RelayContext, message: Message): ServerOutcome {
  const reason = `it nests deeper than ${MAX_DEPTH} levels`;
  if (isResponse(message)) {
    const open = ctx.ledger.agent.get(message.id);
    if (!open) return { drop: true };
    ctx.ledger.agent.delete(message.id);
    ctx.count(open.method, 'withheld', { reason: 'too_deep' });
    return { forward: verdictError(message.id, CODES.WITHHELD, `Bastion withheld the server's answer: ${reason}.`, { request_id: ctx.request.id, action: 'block', stage: 'tool_result', reason: 'too_deep' }) };
  }
  ctx.count(typeof message.method === 'string' ? message.method : 'other', 'withheld', { reason: 'too_deep' });
  if (isRequest(message)) return { drop: true, replyUpstream: errorResponse(message.id, CODES.INVALID_REQUEST, `Bastion did not relay this request: ${reason}.`) };
  return { drop: true };
}

/** Judges the slots in one pool task; any block (or failure) withholds the whole message, redactions are written back. */
async function guardSlots(ctx: RelayContext, message: Message, method: string, { slots, uninspected, overflow }: Slots, tool?: string): Promise<Message> {
  const id = (message.id ?? null) as string | number | null;
  const withhold = (reason: string, extra: Obj = {}) => {
    ctx.count(method, 'withheld', { reason, ...(tool ? { tool } : {}) });
    return verdictError(id, CODES.WITHHELD, `Bastion withheld the server's answer: ${reason.replace(/_/g, ' ')}.`, { request_id: ctx.request.id, action: 'block', stage: 'tool_result', reason, ...extra });
  };
  if (overflow) return withhold('too_many_fields', { max_fields: MAX_SLOTS });
  if (uninspected > 0 && (await tenantPolicies(ctx.request.server.services).get(ctx.tenantId)).contentParts === 'block_unknown') return withhold('uninspectable_content');
  if (slots.length === 0) {
    ctx.count(method, 'allowed');
    return message;
  }
  // A tools/call result holding an injection may be quarantined (src/screening/quarantine-guard.ts): judged uncounted,
  // then its findings counted once (of the rewrite where one was made); the action counts as the guard settles it below.
  const quarantinable = method === 'tools/call' && isResponse(message);
  const items = slots.map((s) => ({ content: s.text, kind: s.kind, role: s.role, at: { call_id: String(id) } }));
  let judged: Judgement[];
  let quarantined: Awaited<ReturnType<typeof quarantineBlocked>>;
  let verdicts: Judgement[];
  try {
    judged = quarantinable ? await judgeUncounted(ctx, items) : await ctx.inspect(items);
    // A credential in tool output scores as exfiltration (a block); what reaches the agent here is redacted in place
    // instead, unless the tenant's policy blocks on secrets or something besides credentials blocked.
    const secretMode = (await tenantPolicies(ctx.request.server.services).get(ctx.tenantId)).secretMode;
    verdicts = judged.map((v, i) => (secretMode === 'redact' && onlySecretsBlock(v) ? { ...v, action: 'redact' as const, redacted_content: redact(slots[i].text, v.secrets, []) } : v));
    quarantined = quarantinable ? await quarantineBlocked(ctx.request, ctx.tenantId, items, verdicts, 'mcp_result') : undefined;
  } catch (err) {
    return withhold('inspection_failed', { code: (err as { code?: string }).code ?? 'INSPECTION_FAILED' });
  }
  if (quarantinable) countFindings(ctx.request, 'mcp_result', judged.map((v, i) => (quarantined?.rewrites.has(i) ? quarantined.verdicts[i] : v)));
  if (quarantined && quarantined.entries.length > 0) return applyQuarantine(ctx, message, method, slots, quarantined, withhold, tool);
  const blocked = verdicts.filter((v) => v.action === 'block');
  if (blocked.length > 0) {
    const info = summarise(ctx.request.id, blocked, 'request');
    ctx.count(method, 'withheld', { reasons: info.reasons.map((r) => r.type), ...(tool ? { tool } : {}) });
    return verdictError(id, CODES.WITHHELD, `Bastion withheld the server's answer: ${info.risk_level} risk (${info.reasons[0]?.type ?? 'blocked'}).`, { ...info, stage: 'tool_result' });
  }
  let redacted = false;
  for (const [i, v] of verdicts.entries()) {
    if (v.action !== 'redact') continue;
    if (!slots[i].set(v.redacted_content)) return withhold('unredactable_content');
    redacted = true;
  }
  ctx.count(method, redacted ? 'redacted' : 'allowed', redacted ? { reasons: verdicts.flatMap((v) => v.secrets.map((s) => s.type)).slice(0, 8) } : undefined);
  return message;
}

/** Judged like ctx.inspect, but not yet counted in the exchange: the caller counts what the agent receives. */
function judgeUncounted(ctx: RelayContext, items: LocatedText[]): Promise<Judgement[]> {
  return judge(ctx.request, items, { entity: ctx.tenantId, contentLimitBytes: ctx.request.server.services.config.contentLimitBytes, record: false });
}

/**
 * Writes the quarantined (and redacted) texts into the result and names what was removed in
 * `_meta["bastion/quarantine"]` (counts, reasons, offsets). A text that cannot be written back withholds the result.
 */
function applyQuarantine(
  ctx: RelayContext,
  message: Message,
  method: string,
  slots: Slots['slots'],
  quarantined: NonNullable<Awaited<ReturnType<typeof quarantineBlocked>>>,
  withhold: (reason: string) => Message,
  tool?: string,
): Message {
  const received = structuredClone(message);
  for (const [i, v] of quarantined.verdicts.entries()) {
    const text = quarantined.rewrites.get(i) ?? (v.action === 'redact' ? v.redacted_content : undefined);
    if (text !== undefined && !slots[i].set(text)) return withhold('unquarantinable_content');
  }
  const result = message.result as Obj;
  const meta = isObj(result._meta) ? result._meta : {};
  const forwarded = { ...message, result: { ...result, _meta: { ...meta, 'bastion/quarantine': quarantined.entries.map((e) => ({ ...e, stage: 'tool_result' })) } } };
  asReceived.set(forwarded, received);
  ctx.count(method, 'redacted', { quarantined: quarantined.entries.map((e) => ({ segments: e.segments, reasons: e.reasons })), ...(tool ? { tool } : {}) });
  return forwarded;
}

/** Blocked only because of credentials or PII found (every HIGH flag comes from the secrets layer). */
function onlySecretsBlock(v: Verdict): boolean {
  if (v.action !== 'block' || v.secrets.length === 0) return false;
  const high = v.flags.filter((f) => f.score >= HIGH);
  return high.length > 0 && high.every((f) => f.layer === 'secrets');
}

/** An error the server answered: its message reaches the model too, so it is judged; a blocked one is replaced. */
async function guardError(ctx: RelayContext, message: Message, method: string): Promise<Message> {
  const error = message.error as Obj;
  const slots: Slots = { slots: [], uninspected: 0 };
  if (typeof error.message === 'string' && error.message) slots.slots.push({ text: error.message, kind: 'tool_result', role: 'tool', set: (t) => ((error.message = t), true) });
  delete error.data; // Free-form data from the server is not relayed: only its code and (judged) message.
  return guardSlots(ctx, message, method, slots);
}

/**
 * tools/list: tools outside the allow-list, changed since approval, new under `review`, or whose definition the
 * definition guard blocks are withheld (named in `_meta["bastion/withheld"]`); the rest pass unchanged.
 */
async function guardToolsList(ctx: RelayContext, message: Message): Promise<Message> {
  const result = message.result as Obj;
  const tools = Array.isArray(result.tools) ? result.tools : [];
  const id = message.id as string | number;
  if (tools.length > MAX_TOOLS) {
    ctx.count('tools/list', 'withheld', { reason: 'too_many_tools' });
    return verdictError(id, CODES.WITHHELD, `Bastion withheld the tool list: more than ${MAX_TOOLS} tools on one page.`, { request_id: ctx.request.id, action: 'block', reason: 'too_many_tools' });
  }
  // A tool that cannot be pinned (no name, a name over 128 characters, not an object) is withheld, named by its
  // position: its name is never echoed, and the list is never relayed as it came.
  const unpinnable: { name: string; reason: string }[] = [];
  const entries = tools.flatMap((tool, i) => {
    const def = isObj(tool) ? definitionOf(tool) : undefined;
    if (!def) unpinnable.push({ name: `#${i}`, reason: 'unpinnable' });
    return def ? [{ tool: tool as Obj, def }] : [];
  });
  const { storage } = ctx.request.server.services;
  const registry = mcpRegistry(ctx.request.server.services);
  const pins = [...(await registry.pins(ctx.tenantId, ctx.server.name)).values()];
  const rec = reconcile(entries.map((e) => e.def), pins, { allowed: allowedToolsOf(ctx.server), newTools: ctx.server.new_tools });
  if (rec.writes.length > 0) {
    await writePins(storage.db, ctx.tenantId, ctx.server.name, rec.writes);
    await registry.changed(ctx.tenantId);
  }
  const candidates: ToolDefinition[] = entries.filter((e) => !rec.withheld.has(e.def.name)).map((e) => e.def);
  const withheld: { name: string; reason: string; findings?: unknown }[] = [...unpinnable, ...[...rec.withheld].map(([name, reason]) => ({ name, reason }))];
  try {
    const otherToolNames = await registry.otherToolNames(ctx.tenantId, ctx.server.name);
    const verdicts = await judgeDefinitions(candidates, (text) => inspectDefinitionText(ctx, text), { scope: ctx.tenantId, otherToolNames });
    for (const v of verdicts) if (v.action === 'block') withheld.push({ name: v.name, reason: 'definition_blocked', findings: v.findings });
  } catch (err) {
    ctx.count('tools/list', 'withheld', { reason: 'inspection_failed' });
    return verdictError(id, CODES.WITHHELD, 'Bastion withheld the tool list: it could not be inspected.', { request_id: ctx.request.id, action: 'block', reason: 'inspection_failed', code: (err as { code?: string }).code ?? 'INSPECTION_FAILED' });
  }
  const hidden = new Set(withheld.map((w) => w.name));
  for (const w of withheld) ctx.count('tools/list', 'withheld', { tool: w.name, reason: w.reason });
  if (hidden.size === 0) {
    ctx.count('tools/list', 'allowed');
    return message;
  }
  const meta = isObj(result._meta) ? result._meta : {};
  return { ...message, result: { ...result, tools: entries.filter((e) => !hidden.has(e.def.name)).map((e) => e.tool), _meta: { ...meta, 'bastion/withheld': withheld } } };
}
