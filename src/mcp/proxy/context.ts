import type { FastifyRequest } from 'fastify';
import type { Item, Judgement } from '../../screening/judge.js';
import { judge } from '../../screening/judge.js';
import { countFindings, countOutcome } from '../../screening/exchange.js';
import type { McpServerRow } from '../../storage/mcp-servers.js';
import { metricsOf } from '../../telemetry/metrics.js';
import type { Id } from './jsonrpc.js';
import type { Asked, SessionLedger } from './session-ledger.js';

export type Outcome = 'allowed' | 'blocked' | 'redacted' | 'withheld';

/** What both guard points know about the exchange they judge: who asks, which server, which requests are open. */
export interface RelayContext {
  request: FastifyRequest;
  tenantId: string;
  server: McpServerRow;
  /** Requests of the agent in this exchange still waiting for the server's answer, by id, with their method (and tool for tools/call). */
  open: Map<Id, Asked>;
  /** The session's unanswered requests on both sides (every stream of the session); an exchange without a session has its own. */
  ledger: SessionLedger;
  inspect(items: Item[]): Promise<Judgement[]>;
  count(method: string, outcome: Outcome, detail?: Record<string, unknown>): void;
}

/** MCP methods that get their own metric label; any other is `other` (bounded label set). */
const METHODS = new Set([
  'initialize', 'ping', 'tools/list', 'tools/call', 'resources/list', 'resources/read', 'resources/templates/list', 'prompts/list', 'prompts/get',
  'sampling/createMessage', 'elicitation/create', 'roots/list', 'completion/complete', 'logging/setLevel',
  'notifications/message', 'notifications/progress', 'notifications/cancelled',
]);

export function relayContext(request: FastifyRequest, server: McpServerRow, ledger?: SessionLedger): RelayContext {
  const { config } = request.server.services;
  const metrics = metricsOf(request.server.services);
  const tenantId = request.principal!.tenantId;
  const open = new Map<Id, Asked>();
  return {
    request,
    tenantId,
    server,
    open,
    ledger: ledger ?? { agent: open, server: new Map() },
    // One POST or stream is one exchange: the agent's calls and the server's answers count in it once. A verdict's
    // findings count when judged; its action when the guard settles it (count below): a credential the guard
    // redacts counts as redacted, not as the block the verdict was, and a call refused by pinning or flow as blocked.
    inspect: async (items) => {
      const verdicts = await judge(request, items, { entity: tenantId, contentLimitBytes: config.contentLimitBytes, record: false });
      countFindings(request, items.some((i) => i.kind === 'tool_call') ? 'mcp_call' : 'mcp_result', verdicts);
      return verdicts;
    },
    count(method, outcome, detail) {
      settle(request, method, outcome, detail);
      metrics.mcpMessages.inc({ server: metrics.mcpServerLabel(server.name), method: METHODS.has(method) ? method : 'other', outcome });
      // Metadata only: the server, the method, the tool's name and the verdict's reasons, never arguments or results.
      if (outcome !== 'allowed') request.log.info({ event: 'mcp_guard', server: server.name, method, outcome, ...detail }, 'MCP message guarded');
    },
  };
}

/** Withholdings that are no verdict on the traffic: the server failed or is not reachable under today's settings, or sent an answer nobody asked for. */
const NOT_A_VERDICT = new Set(['upstream_failed', 'upstream_address_refused', 'unrequested_answer', 'unsolicited_answer']);
/** A tool hidden from a list for the registry's reasons (allow-list, pending approval, size) is not a block of the list. */
const LIST_POLICY = new Set(['not_allowed', 'pending_approval', 'oversized', 'unpinnable']);

/**
 * The guard's outcome in the exchange's count (src/screening/exchange.ts): refused by the agent's side (`blocked`) or
 * withheld from it (`withheld`) counts as blocked, `redacted` as redacted; an allowed message leaves what was judged.
 */
function settle(request: FastifyRequest, method: string, outcome: Outcome, detail: Record<string, unknown> | undefined): void {
  const reason = typeof detail?.reason === 'string' ? detail.reason : '';
  if (outcome === 'blocked') return countOutcome(request, 'mcp_call', { action: 'block', risk_level: 'HIGH', reasons: [] });
  if (outcome === 'redacted') return countOutcome(request, detail?.direction === 'agent' ? 'mcp_call' : 'mcp_result', { action: 'redact', risk_level: 'LOW', reasons: [] });
  if (outcome !== 'withheld' || NOT_A_VERDICT.has(reason) || (method === 'tools/list' && detail?.tool !== undefined && LIST_POLICY.has(reason))) return;
  countOutcome(request, 'mcp_result', { action: 'block', risk_level: 'HIGH', reasons: [] });
}
