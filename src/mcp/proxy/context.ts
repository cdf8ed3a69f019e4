import type { FastifyRequest } from 'fastify';
import type { Item, Judgement } from '../../screening/judge.js';
import { judge } from '../../screening/judge.js';
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
    // One POST or stream is one exchange: the agent's calls and the server's answers count in it once.
    inspect: (items) => judge(request, items, { entity: tenantId, contentLimitBytes: config.contentLimitBytes, record: items.some((i) => i.kind === 'tool_call') ? 'mcp_call' : 'mcp_result' }),
    count(method, outcome, detail) {
      metrics.mcpMessages.inc({ server: metrics.mcpServerLabel(server.name), method: METHODS.has(method) ? method : 'other', outcome });
      // Metadata only: the server, the method, the tool's name and the verdict's reasons, never arguments or results.
      if (outcome !== 'allowed') request.log.info({ event: 'mcp_guard', server: server.name, method, outcome, ...detail }, 'MCP message guarded');
    },
  };
}
