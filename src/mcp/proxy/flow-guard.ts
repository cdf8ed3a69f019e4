import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { textOf } from '../../flows/conversation.js';
import { resultKind } from '../../flows/labels.js';
import { FlowState } from '../../flows/state.js';
import { flowVerdict } from '../../proxy/flows/call-guard.js';
import { newFlowContext, type FlowContext } from '../../proxy/flows/context.js';
import type { Services } from '../../services.js';
import { loadFlowState, saveFlowState } from '../../storage/flows.js';
import type { RelayContext } from './context.js';
import { CODES, isResponse, verdictError, type Message } from './jsonrpc.js';

/**
 * Agent flow policies on the MCP proxy (docs/FLOWS.md). The session's flow state (tool names, call ids, keyed value
 * hashes — never content) lives in storage under the tenant, the server and a hash of the session id, and expires:
 * each tools/call result the agent receives is added to it, and each tools/call is decided against it. The proxy
 * never sees the user's words, so a destination counts as chosen only when it appeared in a private or internal
 * result or is on the tenant's allow-list. A session-less server shares one state per tenant and server.
 */

export const MCP_FLOW_TTL_MS = 24 * 3600_000;
const contexts = new WeakMap<RelayContext, Promise<FlowContext | undefined>>();

/**
 * Live sessions' states, kept in memory where this process is the only writer (the embedded SQLite database): reading
 * a state back from storage on every call costs its whole size (up to MAX_HASHES value hashes a set, ~1 ms for a long
 * session). With PostgreSQL another replica may have extended the state since, so every call reads it from storage.
 */
const liveStates = new WeakMap<Services, LRUCache<string, FlowState>>();

function liveStatesOf(services: Services): LRUCache<string, FlowState> | undefined {
  if (services.storage.dialect !== 'sqlite') return undefined;
  let cache = liveStates.get(services);
  if (!cache) liveStates.set(services, (cache = new LRUCache<string, FlowState>({ max: 10_000, ttl: MCP_FLOW_TTL_MS })));
  return cache;
}

function stateKey(ctx: RelayContext): string {
  const session = ctx.request.headers['mcp-session-id'];
  const id = typeof session === 'string' && session ? createHash('sha256').update(session).digest('base64url').slice(0, 32) : '-';
  return `mcp:${ctx.server.name}:${id}`;
}

/** The session's flow context, loaded once per HTTP request. A state that cannot be read counts as untrusted content seen. */
function sessionFlows(ctx: RelayContext): Promise<FlowContext | undefined> {
  let pending = contexts.get(ctx);
  if (!pending) {
    pending = (async () => {
      const services = ctx.request.server.services;
      const flows = await newFlowContext(services, ctx.tenantId, 'mcp');
      if (!flows) return undefined;
      const live = liveStatesOf(services);
      const key = `${ctx.tenantId}\0${stateKey(ctx)}`;
      const kept = live?.get(key);
      if (kept) {
        flows.state = kept;
        return flows;
      }
      const stored = await loadFlowState(services.storage.db, ctx.tenantId, stateKey(ctx));
      if (stored) {
        try {
          flows.state = FlowState.fromStored(flows.hash, stored);
        } catch {
          flows.state.addResult('(unreadable session state)', undefined, 'untrusted', '');
        }
      }
      live?.set(key, flows.state);
      return flows;
    })();
    contexts.set(ctx, pending);
  }
  return pending;
}

/** Decides a tools/call by flow; returns the JSON-RPC refusal to answer, or undefined to forward it. */
export async function mcpFlowRefusal(ctx: RelayContext, id: string | number, tool: string, args: unknown): Promise<Message | undefined> {
  const flows = await sessionFlows(ctx);
  if (!flows) return undefined;
  const verdict = await flowVerdict(ctx.request, flows, { tool, server: ctx.server.name, arguments: JSON.stringify(args ?? {}) });
  if (!verdict) return undefined;
  if (verdict.status === 'flagged') {
    // Released: counted once as allowed by the caller; the flag is in the decision record and this metadata line.
    ctx.request.log.info({ event: 'mcp_flow_flagged', server: ctx.server.name, tool, flow: verdict.flow }, 'MCP call flagged by flow');
    return undefined;
  }
  ctx.count('tools/call', 'blocked', { tool, reason: 'flow', flow: verdict.flow });
  const text = verdict.status === 'pending' ? 'the call would send data out after untrusted content; it waits for approval by a tenant admin.' : 'the call would send data out after untrusted content.';
  return verdictError(id, CODES.REFUSED, `Bastion refused this call: ${text}`, { request_id: ctx.request.id, action: 'block', stage: 'tool_call', reason: `flow: ${verdict.flow}`, tool, flow: verdict });
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
  flows.state.addCall(String(message.id), open.tool);
  flows.state.addResult(open.tool, String(message.id), resultKind(flows.policy, open.tool, ctx.server.name), text);
  await saveFlowState(ctx.request.server.services.storage.db, ctx.tenantId, stateKey(ctx), flows.state.toStored(), MCP_FLOW_TTL_MS);
}
