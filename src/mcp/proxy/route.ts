import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BastionError, RequestValidationError } from '../../errors.js';
import { consumeMonthlyQuota } from '../../http/hooks/rate-limit.js';
import { rateLimitHeaders } from '../../limits/headers.js';
import { gatewaySecret } from '../../storage/gateway-secrets.js';
import type { McpServerRow } from '../../storage/mcp-servers.js';
import { relayContext, type RelayContext } from './context.js';
import { credentialHeaderOf } from './credential-header.js';
import { mcpRegistry, type CachedServer } from './registry-cache.js';
import { guardAgentMessage } from './guard-agent.js';
import { CODES, errorResponse, isRequest, messagesOf, type Message } from './jsonrpc.js';
import { failOpen, relayAnswer, type RelayTarget } from './relay.js';
import { HOPS_HEADER, nextRelayHops, upstreamStatusReason } from './relay-hops.js';
import { SessionBinder } from './session-binding.js';
import { isStdioServer } from './wrap-route.js';
import { McpUpstream, type UpstreamCall } from './upstream.js';
import { postDescription, Params } from './route-schema.js';

/** Requests whose answers are inspected: each counts one unit of the monthly quota, like a /filter call. */
const METERED = new Set(['tools/call', 'resources/read', 'prompts/get']);
const SESSION = 'mcp-session-id';

/**
 * /mcp/servers/{name} on the data plane: the agent speaks MCP (Streamable HTTP) as to the upstream server its tenant
 * registered under that name; Bastion authenticates the agent by API key (onRequest, with the key's window), holds
 * the upstream credential, and relays JSON-RPC message by message through guard point [B] (agent → server) and [A]
 * (server → agent). The upstream's session id is handed out bound to the tenant and server (session-binding.ts).
 */
export async function mcpProxyRoutes(app: FastifyInstance): Promise<void> {
  const { config, storage } = app.services;
  const upstream = new McpUpstream(config);
  app.addHook('onClose', () => upstream.close());
  let binding: Promise<SessionBinder> | undefined;
  const bindingOf = () =>
    (binding ??= (config.masterKey ? gatewaySecret(storage.db, config.masterKey, 'mcp-session-binding') : Promise.resolve(randomBytes(32))).then((key) => new SessionBinder(key)));

  const registry = mcpRegistry(app.services);
  const serverOf = async (request: FastifyRequest<{ Params: { name: string } }>): Promise<CachedServer> => {
    const server = await registry.server(request.principal!.tenantId, request.params.name);
    if (!server) throw new BastionError('MCP_SERVER_NOT_FOUND');
    if (isStdioServer(server.row)) throw new BastionError('MCP_WRONG_TRANSPORT');
    return server;
  };

  /** Headers sent upstream: the MCP ones the agent sent, the unbound session id and the server's credential. */
  const upstreamHeaders = async (request: FastifyRequest, { row: server, credential }: CachedServer, accept: string): Promise<Record<string, string>> => {
    const headers: Record<string, string> = { accept, [HOPS_HEADER]: nextRelayHops(request) };
    const version = request.headers['mcp-protocol-version'];
    if (typeof version === 'string' && /^[\w.-]{1,32}$/.test(version)) headers['mcp-protocol-version'] = version;
    const lastEvent = request.headers['last-event-id'];
    if (typeof lastEvent === 'string' && lastEvent.length <= 256 && !/[\r\n]/.test(lastEvent)) headers['last-event-id'] = lastEvent;
    const presented = request.headers[SESSION];
    if (typeof presented === 'string') {
      const id = (await bindingOf()).unbind(server.tenant_id, server.name, presented);
      if (id === undefined) throw new BastionError('MCP_SESSION_NOT_FOUND');
      headers[SESSION] = id;
    }
    if (credential instanceof Error) throw new BastionError('MCP_CREDENTIAL_NEEDS_MASTER_KEY', { cause: credential });
    if (credential !== undefined) headers[credentialHeaderOf(server)] = credential;
    return headers;
  };

  /** The agent's answer headers: rate-limit fields (onSend does not run on a hijacked reply) and the bound session id. */
  const answerHeaders = async (request: FastifyRequest, server: McpServerRow, upstreamSession: unknown): Promise<Record<string, string>> => {
    const headers: Record<string, string> = { 'x-request-id': request.id, ...(request.rateState ? rateLimitHeaders(request.rateState) : {}) };
    if (typeof upstreamSession === 'string') {
      const bound = (await bindingOf()).bind(server.tenant_id, server.name, upstreamSession);
      if (bound) headers[SESSION] = bound;
    }
    return headers;
  };

  const call = (request: FastifyRequest, reply: FastifyReply, ctx: RelayContext, server: McpServerRow, upstreamCall: Omit<UpstreamCall, 'signal'>) =>
    forward(request, reply, ctx, upstreamCall, async (answer) => {
      const target: RelayTarget = {
        res: reply.raw,
        headers: await answerHeaders(request, server, answer.headers[SESSION]),
        limit: config.mcpMessageLimitBytes,
        replyUpstream: async (message) => {
          const { body } = await upstream.send({ url: server.url, method: 'POST', headers: { ...upstreamCall.headers, accept: 'application/json, text/event-stream', 'content-type': 'application/json' }, body: JSON.stringify(message), signal: AbortSignal.timeout(config.upstreamHeadersTimeoutMs) });
          body.resume();
        },
      };
      return target;
    });

  const forward = async (request: FastifyRequest, reply: FastifyReply, ctx: RelayContext, upstreamCall: Omit<UpstreamCall, 'signal'>, targetOf: (answer: Awaited<ReturnType<McpUpstream['send']>>) => Promise<RelayTarget>) => {
    const abort = new AbortController();
    // Only an agent that leaves before its answer is complete cancels the upstream call (abort() builds an error with
    // a stack: not worth it on every finished answer).
    reply.raw.on('close', () => reply.raw.writableFinished || abort.abort());
    const started = performance.now();
    const answer = await upstream.send({ ...upstreamCall, signal: abort.signal }).catch((err: unknown) => err as BastionError);
    request.upstreamMs = performance.now() - started;
    if (answer instanceof Error) {
      // Nothing reached the agent yet: its open requests get JSON-RPC errors, a bare notification the catalogue 502/504.
      if (ctx.open.size === 0) throw answer;
      reply.hijack();
      return failOpen(ctx, { res: reply.raw, headers: await answerHeaders(request, ctx.server, undefined), limit: 0, replyUpstream: async () => {} }, 'the MCP server could not be reached');
    }
    if (answer.statusCode === 404 && upstreamCall.headers[SESSION] !== undefined) {
      answer.body.resume();
      throw new BastionError('MCP_SESSION_NOT_FOUND');
    }
    if (answer.statusCode === 405 || (answer.statusCode >= 200 && answer.statusCode < 300 && (answer.statusCode !== 200 || upstreamCall.method === 'DELETE'))) {
      // 202 (notifications accepted), a DELETE's answer, 405 (no standalone stream): the status is the whole answer.
      answer.body.resume();
      reply.hijack();
      const headers = await answerHeaders(request, ctx.server, answer.headers[SESSION]);
      reply.raw.writeHead(answer.statusCode === 204 || answer.statusCode === 202 ? answer.statusCode : answer.statusCode === 405 ? 405 : 200, answer.statusCode === 405 ? { ...headers, allow: 'POST', 'content-type': 'application/json' } : headers);
      reply.raw.end(answer.statusCode === 405 ? JSON.stringify(new BastionError('METHOD_NOT_ALLOWED').toBody()) : undefined);
      return;
    }
    reply.hijack();
    const target = await targetOf(answer);
    if (answer.statusCode !== 200) {
      answer.body.resume();
      return failOpen(ctx, target, upstreamStatusReason(answer.statusCode));
    }
    await relayAnswer(ctx, answer, target);
  };

  app.post<{ Params: { name: string }; Body: unknown }>(
    '/mcp/servers/:name',
    { config: { security: 'apiKey', rateLimited: true }, schema: { summary: 'MCP proxy: JSON-RPC to a registered upstream MCP server, guarded both ways', description: postDescription, params: Params, body: { description: 'A JSON-RPC 2.0 message (or a batch of up to 16)' }, response: { 200: { description: 'The JSON-RPC answer: application/json, or text/event-stream relayed event by event', type: 'object', additionalProperties: true }, 202: { description: 'Notifications or responses accepted (no body)', type: 'null' } } } },
    async (request, reply) => {
      const messages = messagesOf(request.body);
      if (!messages) throw new RequestValidationError([{ loc: ['body'], msg: 'Send one JSON-RPC 2.0 message (or a batch of 1 to 16)', type: 'value_error.jsonrpc' }]);
      const accept = request.headers.accept ?? '';
      if (!accept.includes('application/json') || !accept.includes('text/event-stream')) throw new BastionError('MCP_NOT_ACCEPTABLE');
      const server = await serverOf(request);
      const ctx = relayContext(request, server.row);
      const headers = await upstreamHeaders(request, server, 'application/json, text/event-stream');
      if (headers[SESSION] === undefined && !messages.some((m) => m.method === 'initialize')) throw new BastionError('MCP_SESSION_REQUIRED');

      const metered = messages.filter((m) => isRequest(m) && METERED.has(m.method as string)).length;
      if (metered > 0) await consumeMonthlyQuota(request, metered);
      const forwarded: Message[] = [];
      const refusals: Message[] = [];
      for (const m of messages) {
        const guarded = await guardAgentMessage(ctx, m);
        if ('refuse' in guarded) refusals.push(guarded.refuse);
        else forwarded.push(guarded.forward);
      }
      if (refusals.length > 0) {
        // A batch is forwarded whole or not at all: its other requests are answered as not sent.
        const others = forwarded.filter(isRequest).map((m) => errorResponse(m.id, CODES.REFUSED, 'Bastion did not send this request: another message of the batch was refused.'));
        const all = [...refusals, ...others];
        return reply.code(200).header('content-type', 'application/json').send(Array.isArray(request.body) ? all : all[0]);
      }
      for (const m of forwarded) {
        if (!isRequest(m)) continue;
        const params = (m.params ?? {}) as { name?: unknown };
        ctx.open.set(m.id, { method: m.method, ...(m.method === 'tools/call' && typeof params.name === 'string' ? { tool: params.name } : {}) });
      }
      const body = JSON.stringify(Array.isArray(request.body) ? forwarded : forwarded[0]);
      await call(request, reply, ctx, server.row, { url: server.row.url, method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
    },
  );

  app.get<{ Params: { name: string } }>(
    '/mcp/servers/:name',
    { config: { security: 'apiKey', rateLimited: true }, schema: { summary: "MCP proxy: the session's standalone SSE stream of server messages, guarded", params: Params, response: { 200: { description: 'text/event-stream', type: 'string' } } } },
    async (request, reply) => {
      if (!(request.headers.accept ?? '').includes('text/event-stream')) throw new BastionError('MCP_NOT_ACCEPTABLE');
      const server = await serverOf(request);
      const ctx = relayContext(request, server.row);
      const headers = await upstreamHeaders(request, server, 'text/event-stream');
      if (headers[SESSION] === undefined) throw new BastionError('MCP_SESSION_REQUIRED');
      await call(request, reply, ctx, server.row, { url: server.row.url, method: 'GET', headers, bodyTimeoutMs: 0 });
    },
  );

  app.delete<{ Params: { name: string } }>(
    '/mcp/servers/:name',
    { config: { security: 'apiKey', rateLimited: true }, schema: { summary: 'MCP proxy: end the session upstream', params: Params, response: { 200: { description: 'Session ended', type: 'null' }, 204: { description: 'Session ended', type: 'null' } } } },
    async (request, reply) => {
      const server = await serverOf(request);
      const ctx = relayContext(request, server.row);
      const headers = await upstreamHeaders(request, server, 'application/json, text/event-stream');
      if (headers[SESSION] === undefined) throw new BastionError('MCP_SESSION_REQUIRED');
      await call(request, reply, ctx, server.row, { url: server.row.url, method: 'DELETE', headers });
    },
  );
}
