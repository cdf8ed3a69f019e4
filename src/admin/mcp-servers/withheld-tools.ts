import type { FastifyRequest } from 'fastify';
import { judgeDefinitions, type ToolDefinitionVerdict } from '../../mcp/proxy/definition-guard.js';
import { mcpRegistry } from '../../mcp/proxy/registry-cache.js';
import { judge } from '../../screening/judge.js';
import type { PinRow } from '../../storage/mcp-pins.js';
import type { McpServerRow } from '../../storage/mcp-servers.js';

export type WithheldReason = 'definition_blocked' | 'not_allowed';
export interface Withheld {
  reason: WithheldReason;
  findings: ToolDefinitionVerdict['findings'];
}

/**
 * Approved tools agents never see: outside the server's allow-list, or whose approved definition the definition guard
 * blocks (instructions to the model in a description). Judged as the proxy judges the list (the same cache, the same
 * other-server names), so the console's status is what agents get. A judgement that fails leaves the stored status.
 */
export async function withheldTools(request: FastifyRequest, tenantId: string, server: McpServerRow, pins: readonly PinRow[]): Promise<Map<string, Withheld>> {
  const out = new Map<string, Withheld>();
  const allowed = server.allowed_tools === null ? null : new Set(JSON.parse(server.allowed_tools) as string[]);
  for (const pin of pins) if (allowed && !allowed.has(pin.tool_name)) out.set(pin.tool_name, { reason: 'not_allowed', findings: [] });
  const approved = pins.filter((p) => p.approved_definition !== null && !out.has(p.tool_name));
  if (approved.length === 0) return out;
  const { services } = request.server;
  const inspect = async (text: string) =>
    (await judge(request, [{ content: text, kind: 'tool_result', role: 'tool' }], { contentLimitBytes: services.config.contentLimitBytes, record: false, tenantId }))[0];
  try {
    const otherToolNames = await mcpRegistry(services).otherToolNames(tenantId, server.name);
    const verdicts = await judgeDefinitions(approved.map((p) => JSON.parse(p.approved_definition!) as { name: string }), inspect, { scope: tenantId, otherToolNames });
    for (const v of verdicts) if (v.action === 'block') out.set(v.name, { reason: 'definition_blocked', findings: v.findings });
  } catch {
    // Pool overloaded or a deadline: the page shows the stored status; the proxy itself never lets such a tool through.
  }
  return out;
}
