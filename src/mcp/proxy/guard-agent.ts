import { summarise } from '../../proxy/chat/verdict-summary.js';
import { allowedToolsOf } from '../../storage/mcp-servers.js';
import type { RelayContext } from './context.js';
import { cachedDefinitionVerdict, judgeDefinitions, type ToolDefinitionVerdict } from './definition-guard.js';
import { guardAgentText } from './guard-agent-text.js';
import { inspectDefinitionText } from './guard-server.js';
import { mcpRegistry } from './registry-cache.js';
import { CODES, verdictError, type Message } from './jsonrpc.js';
import { mcpFlowRefusal, mcpTypedCorrection } from './flow-guard.js';

/** How Bastion refused a tool: the agent sees the reason in error.data.bastion.reason. */
type Refusal = 'tool_not_allowed' | 'tool_not_reviewed' | 'tool_pending_approval' | 'tool_definition_blocked' | 'dangerous_call' | 'inspection_failed';

/**
 * Guard point [B], agent → server. Any other message is judged by guard-agent-text.ts. A `tools/call` reaches the server only for a tool the tenant may use (allow-list),
 * whose pinned definition is approved and unchanged and passes the definition guard, and whose arguments the effect
 * judge (kind tool_call, the tool's name beside its arguments) does not block. A call carrying a credential or PII is
 * forwarded with the redacted arguments. Anything else is answered here with a JSON-RPC error holding the verdict.
 * Returns the message to forward (possibly rewritten) or the error to answer.
 */
export async function guardAgentMessage(ctx: RelayContext, message: Message): Promise<{ forward: Message } | { refuse: Message }> {
  if (message.method !== 'tools/call' || message.id === undefined) return guardAgentText(ctx, message);
  const id = message.id as string | number;
  const params = (message.params ?? {}) as { name?: unknown; arguments?: unknown };
  const tool = typeof params.name === 'string' ? params.name : '';
  const refuse = (reason: Refusal, text: string, extra: Record<string, unknown> = {}) => {
    ctx.count('tools/call', 'blocked', { tool, reason });
    return { refuse: verdictError(id, CODES.REFUSED, `Bastion refused this call: ${text}`, { request_id: ctx.request.id, action: 'block', stage: 'tool_call', reason, tool, ...extra }) };
  };

  const allowed = allowedToolsOf(ctx.server);
  if (allowed && !allowed.has(tool)) return refuse('tool_not_allowed', 'the tool is not allowed on this server.');
  const pin = (await mcpRegistry(ctx.request.server.services).pins(ctx.tenantId, ctx.server.name)).get(tool);
  if (!pin || pin.approved_hash === null) return refuse(pin ? 'tool_pending_approval' : 'tool_not_reviewed', pin ? 'the tool waits for approval by a tenant admin.' : 'the tool was never listed through Bastion (list the tools first).');
  if (pin.pending_hash !== null) return refuse('tool_pending_approval', 'the tool definition changed and waits for approval by a tenant admin.', { pending_hash: pin.pending_hash });

  try {
    const judged = await approvedDefinitionVerdict(ctx, tool, pin.approved_hash);
    if (judged.action === 'block') return refuse('tool_definition_blocked', 'the tool definition carries instructions to the model.', { findings: judged.findings });

    const args = params.arguments ?? {};
    const content = JSON.stringify({ name: tool, arguments: JSON.stringify(args) });
    // What the user typed stays theirs (a phone number they gave is not redacted out of the call they asked for).
    const verdict = await mcpTypedCorrection(ctx, (await ctx.inspect([{ content, kind: 'tool_call' }]))[0], content, tool, args);
    if (verdict.action === 'block') {
      ctx.count('tools/call', 'blocked', { tool, reason: 'dangerous_call', reasons: verdict.flags.map((f) => f.type).slice(0, 8) });
      return { refuse: verdictError(id, CODES.REFUSED, `Bastion refused this call: ${verdict.risk_level} risk (${verdict.flags.find((f) => f.score > 0)?.type ?? 'blocked'}).`, { ...summarise(verdict.request_id, [verdict], 'tool_calls'), reason: 'dangerous_call', tool }) };
    }
    // Agent flow policy: a sink after untrusted content in this session (docs/FLOWS.md).
    const flowRefusal = await mcpFlowRefusal(ctx, id, tool, args);
    if (flowRefusal) return { refuse: flowRefusal };
    if (verdict.action === 'redact') {
      const redacted = redactedArguments(verdict.redacted_content);
      if (redacted === undefined) return refuse('inspection_failed', 'the arguments could not be redacted.');
      ctx.count('tools/call', 'redacted', { tool, direction: 'agent' });
      return { forward: { ...message, params: { ...params, arguments: redacted } } };
    }
  } catch (err) {
    // A detector that fails (pool overloaded, deadline, content too large) never lets the call through.
    return refuse('inspection_failed', 'the call could not be inspected.', { code: (err as { code?: string }).code ?? 'INSPECTION_FAILED' });
  }
  ctx.count('tools/call', 'allowed', { tool });
  return { forward: message };
}

/**
 * The definition judge's verdict on the approved definition of `tool`. Usually in memory from the tools/list that
 * showed it; otherwise (another replica, a restart) the server's approved definitions are judged again as one list,
 * as the agent saw them, so a description naming a sibling tool reads the same as in the list.
 */
async function approvedDefinitionVerdict(ctx: RelayContext, tool: string, hash: string): Promise<ToolDefinitionVerdict> {
  const cached = cachedDefinitionVerdict(ctx.tenantId, hash);
  if (cached) return cached;
  const registry = mcpRegistry(ctx.request.server.services);
  const pins = [...(await registry.pins(ctx.tenantId, ctx.server.name)).values()].filter((p) => p.approved_definition !== null);
  const definitions = pins.map((p) => JSON.parse(p.approved_definition!) as { name: string });
  const otherToolNames = await registry.otherToolNames(ctx.tenantId, ctx.server.name);
  const verdicts = await judgeDefinitions(definitions, (text) => inspectDefinitionText(ctx, text), { scope: ctx.tenantId, otherToolNames });
  const verdict = verdicts.find((v) => v.name === tool);
  // The pin changed between the two reads: judge nothing as allowed by default.
  if (!verdict) throw Object.assign(new Error('pinned definition moved'), { code: 'MCP_PIN_CHANGED' });
  return verdict;
}

/** The arguments object out of the redacted `{name, arguments: "<JSON>"}` text, undefined when it no longer parses. */
function redactedArguments(text: string): unknown {
  try {
    const envelope = JSON.parse(text) as { arguments?: unknown };
    return typeof envelope.arguments === 'string' ? JSON.parse(envelope.arguments) : undefined;
  } catch {
    return undefined;
  }
}
