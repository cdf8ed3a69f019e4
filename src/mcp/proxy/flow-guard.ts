import { createHash } from 'node:crypto';
import { textOf } from '../../flows/conversation.js';
import { argumentsNameSomeone, resultKind } from '../../flows/labels.js';
import { flowVerdict } from '../../proxy/flows/call-guard.js';
import { countOutcome } from '../../screening/exchange.js';
import { waiveMessageInside } from '../../flows/messages-inside.js';
import { keepTypedValues, waiveRawAccountBlock, type CallVerdict } from '../../flows/typed-values.js';
import { newFlowContext, type FlowContext } from '../../proxy/flows/context.js';
import { withFacts } from '../../proxy/flows/read-calls.js';
import type { Services } from '../../services.js';
import type { RelayContext } from './context.js';
import { linkedConversation, sessionStates as statesOf } from '../../proxy/flows/linked-sessions.js';
import { CODES, isResponse, verdictError, type Message } from './jsonrpc.js';

/**
 * Agent flow policies on the MCP proxy (docs/FLOWS.md). The session's flow state (tool names, call ids, keyed value
 * hashes — never content) lives in storage under the tenant, the server and a hash of the session id, and expires:
 * each tools/call result the agent receives is added to it, and each tools/call is decided against it. The proxy
 * never sees the user's words, so a destination counts as chosen only when it appeared in a private or internal
 * result or is on the tenant's allow-list — unless the agent links its model conversation with `Bastion-Flow-Session`
 * (linked-sessions.ts), whose named values and untrusted values then count too. A session-less server shares one
 * state per tenant and server.
 */

const contexts = new WeakMap<RelayContext, Promise<FlowContext | undefined>>();

function stateKey(ctx: RelayContext): string {
  const session = ctx.request.headers['mcp-session-id'];
  const id = typeof session === 'string' && session ? createHash('sha256').update(session).digest('base64url').slice(0, 32) : '-';
  return `mcp:${ctx.server.name}:${id}`;
}

/**
 * The session's flow context, loaded once per HTTP request (with PostgreSQL: the parts other replicas appended since).
 * A state that cannot be read counts as untrusted content seen.
 */
function sessionFlows(ctx: RelayContext): Promise<FlowContext | undefined> {
  let pending = contexts.get(ctx);
  if (!pending) {
    pending = (async () => {
      const services = ctx.request.server.services;
      const flows = await newFlowContext(services, ctx.tenantId, 'mcp');
      if (!flows) return undefined;
      flows.state = await statesOf(services).current(ctx.tenantId, stateKey(ctx));
      return flows;
    })();
    contexts.set(ctx, pending);
  }
  return pending;
}

/** The flows context to decide a call on: the session's newest state, joined with its linked conversation. */
async function decisionFlows(ctx: RelayContext): Promise<FlowContext | undefined> {
  const flows = await sessionFlows(ctx);
  if (!flows) return undefined;
  // Another request of the session may have re-read the state since (after a compaction elsewhere): decide on the newest.
  let state = statesOf(ctx.request.server.services).latest(ctx.tenantId, stateKey(ctx)) ?? flows.state;
  const linked = await linkedConversation(ctx.request, ctx.tenantId);
  if (linked) state = state.joinedWith(linked, 'linked conversation');
  return { ...flows, state };
}

/**
 * The content judge's verdict on a call, corrected by what the session shows the user typed (src/flows/typed-values.ts:
 * a value the user gave is not redacted out of the call; a payment to raw account details they gave defers to flow;
 * src/flows/messages-inside.ts: a message to the people they named inside the organisation).
 */
export async function mcpTypedCorrection<V extends CallVerdict>(ctx: RelayContext, verdict: V, content: string, tool: string, args: unknown): Promise<V> {
  if (verdict.action === 'allow') return verdict;
  const flows = await decisionFlows(ctx);
  if (!flows) return verdict;
  const [call] = await withFacts(ctx.request, flows.state, [{ tool, server: ctx.server.name, arguments: JSON.stringify(args ?? {}) }], () => true);
  const waived = waiveMessageInside(waiveRawAccountBlock(verdict, content, flows.state, flows.hash, flows.detection), content, call, flows);
  return keepTypedValues(waived, content, flows.state, flows.hash);
}

/** Decides a tools/call by flow; returns the JSON-RPC refusal to answer, or undefined to forward it. */
export async function mcpFlowRefusal(ctx: RelayContext, id: string | number, tool: string, args: unknown): Promise<Message | undefined> {
  const flows = await decisionFlows(ctx);
  if (!flows) return undefined;
  const [call] = await withFacts(ctx.request, flows.state, [{ tool, server: ctx.server.name, arguments: JSON.stringify(args ?? {}) }], () => false);
  const verdict = await flowVerdict(ctx.request, flows, call);
  if (!verdict) return undefined;
  if (verdict.status === 'flagged') {
    // Released: counted once as allowed by the caller; the flag is in the decision record and this metadata line.
    ctx.request.log.info({ event: 'mcp_flow_flagged', server: ctx.server.name, tool, flow: verdict.flow }, 'MCP call flagged by flow');
    return undefined;
  }
  // Blocked in the tenant's counts, with the flow reason among its flags (as on chat, Responses and Messages).
  countOutcome(ctx.request, 'mcp_call', { action: 'block', risk_level: 'HIGH', reasons: [{ layer: 'flow', type: verdict.flow }] });
  ctx.count('tools/call', 'blocked', { tool, reason: 'flow', flow: verdict.flow });
  return verdictError(id, CODES.REFUSED, verdict.message, { request_id: ctx.request.id, action: 'block', stage: 'tool_call', reason: `flow: ${verdict.flow}`, tool, flow: verdict });
}

/** Adds a tools/call result the agent is about to receive to the session's state (before its open request is closed). */
export async function recordMcpResult(ctx: RelayContext, message: Message): Promise<void> {
  if (!isResponse(message)) return;
  const open = ctx.open.get(message.id);
  if (open?.method !== 'tools/call' || !open.tool || message.result === undefined) return;
  const flows = await sessionFlows(ctx);
  if (!flows) return;
  const result = message.result as { content?: unknown; structuredContent?: unknown };
  const text = [textOf(result.content), result.structuredContent === undefined ? '' : JSON.stringify(result.structuredContent).slice(0, 64 * 1024)].join('\n');
  // Without the call's arguments (a wrapper that did not send them) a profile read names someone: not the user's own.
  const kind = resultKind(flows.policy, open.tool, ctx.server.name, open.args === undefined || argumentsNameSomeone(open.args));
  await statesOf(ctx.request.server.services).record(ctx.tenantId, stateKey(ctx), (state) => {
    state.addCall(String(message.id), open.tool!, open.args);
    state.addResult(open.tool!, String(message.id), kind, text);
  });
}
