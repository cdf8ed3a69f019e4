import type { FastifyInstance } from 'fastify';
import { BastionError, RequestValidationError } from '../../errors.js';
import { consumeMonthlyQuota } from '../../http/hooks/rate-limit.js';
import type { McpServerRow } from '../../storage/mcp-servers.js';
import { relayContext } from './context.js';
import { guardAgentMessage } from './guard-agent.js';
import { recordMcpResult } from './flow-guard.js';
import { guardServerMessage } from './guard-server.js';
import { isMessage, isRequest, isResponse, loadJsonRpcSchema, type Message } from './jsonrpc.js';
import { mcpRegistry } from './registry-cache.js';
import { Params } from './route-schema.js';

/** Requests whose answers are inspected: one unit of the monthly quota each, as on /mcp/servers/{name}. */
const METERED = new Set(['tools/call', 'resources/read', 'prompts/get']);

export const isStdioServer = (row: McpServerRow): boolean => row.url.startsWith('stdio:');

const Body = {
  type: 'object',
  required: ['from', 'message'],
  additionalProperties: false,
  properties: {
    from: { type: 'string', enum: ['agent', 'server'], description: 'Who sent the message: the agent (guard point [B]) or the wrapped server (guard point [A])' },
    message: { type: 'object', description: 'One JSON-RPC 2.0 message as read from the stdio stream' },
    asked: {
      type: 'object',
      additionalProperties: false,
      required: ['method'],
      description: "For a server's response: what the agent had asked (the wrapper keeps the open requests). A response sent without it is dropped",
      properties: { method: { type: 'string', maxLength: 64 }, tool: { type: 'string', maxLength: 128 } },
    },
  },
} as const;

const Answer = {
  type: 'object',
  required: ['action'],
  properties: {
    action: { type: 'string', enum: ['forward', 'refuse', 'drop'], description: 'forward: pass `message` on; refuse: answer the sender with `message` instead; drop: pass nothing on, and send `reply` (if any) back to the server' },
    message: { type: 'object', additionalProperties: true },
    reply: { type: 'object', additionalProperties: true },
  },
} as const;

/**
 * POST /mcp/wrap/{name}/messages on the data plane: the judging half of `bastion mcp wrap`. The wrapper runs a stdio
 * MCP server on the agent's machine and sends each JSON-RPC message here before passing it on; the gateway applies
 * the very guards of the HTTP relay (guard-agent.ts, guard-server.ts: pinning, the definition judge, effects, results)
 * with the tenant's pins and policy, and says what to pass on. The verdicts are counted and logged as for the relay.
 */
export async function mcpWrapRoutes(app: FastifyInstance): Promise<void> {
  const registry = mcpRegistry(app.services);
  // The SDK's JSON-RPC schema, loaded by the first message judged (jsonrpc.ts).
  app.addHook('preHandler', async () => {
    await loadJsonRpcSchema();
  });
  app.post<{ Params: { name: string }; Body: { from: 'agent' | 'server'; message: unknown; asked?: { method: string; tool?: string } } }>(
    '/mcp/wrap/:name/messages',
    { config: { security: 'apiKey', rateLimited: true }, schema: { summary: 'MCP stdio wrapper: judge one message between an agent and a server run by `bastion mcp wrap`', params: Params, body: Body, response: { 200: Answer } } },
    async (request) => {
      const server = await registry.server(request.principal!.tenantId, request.params.name);
      if (!server) throw new BastionError('MCP_SERVER_NOT_FOUND');
      if (!isStdioServer(server.row)) throw new BastionError('MCP_WRONG_TRANSPORT');
      const message = request.body.message;
      if (!isMessage(message)) throw new RequestValidationError([{ loc: ['body', 'message'], msg: 'Not a JSON-RPC 2.0 message', type: 'value_error.jsonrpc' }]);
      const ctx = relayContext(request, server.row);
      if (request.body.from === 'agent') {
        if (isRequest(message) && METERED.has(message.method)) await consumeMonthlyQuota(request, 1);
        const guarded = await guardAgentMessage(ctx, message);
        return 'refuse' in guarded ? { action: 'refuse', message: guarded.refuse } : { action: 'forward', message: guarded.forward };
      }
      const asked = request.body.asked;
      if (isResponse(message)) {
        // An answer is judged by the request it answers; without one (a wrapper that did not record the request, or a
        // server answering ids never sent) nothing says how to judge it, so it is never passed on.
        if (!asked) {
          ctx.count('other', 'withheld', { reason: 'unsolicited_answer' });
          return { action: 'drop' };
        }
        ctx.open.set(message.id, { method: asked.method, ...(asked.tool ? { tool: asked.tool } : {}) });
      }
      const outcome = await guardServerMessage(ctx, message);
      if ('forward' in outcome) await recordMcpResult(ctx, outcome.forward);
      return 'drop' in outcome ? { action: 'drop', ...(outcome.replyUpstream ? { reply: outcome.replyUpstream } : {}) } : { action: 'forward', message: outcome.forward as Message };
    },
  );
}
