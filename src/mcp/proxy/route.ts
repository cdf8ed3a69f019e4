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
import { CODES, errorResponse, isNotificationMethod, isRequest, loadJsonRpcSchema, MAX_DEPTH, messagesOf, nestsDeeper, type Id, type Message } from './jsonrpc.js';
import { failOpen, relayAnswer, type RelayTarget } from './relay.js';
import { HOPS_HEADER, nextRelayHops, upstreamStatusReason } from './relay-hops.js';
import { LOCAL_SESSION, SessionBinder } from './session-binding.js';
import { forgetSession, MAX_OPEN_PER_SESSION, sessionLedger } from './session-ledger.js';
import { isStdioServer } from './wrap-route.js';
import { McpUpstream, type UpstreamCall } from './upstream.js';
import { ADDRESS_REFUSED_REASON, refusedAsPrivate } from './upstream-lookup.js';
import { postDescription, Params } from './route-schema.js';

/** Requests whose answers are inspected: each counts one unit of the monthly quota, like a /filter call. */
const METERED = new Set(['tools/call', 'resources/read', 'prompts/get']);
const SESSION = 'mcp-session-id';

interface Session {
  upstreamId: string;
  key: string;
}

/** A JSON-RPC answer written as it is (a batch stays an array: the route's response schema would make it an object). */
function answerJson(reply: FastifyReply, body: Message | Message[]): FastifyReply {
  return reply.code(200).header('content-type', 'application/json').send(JSON.stringify(body));
}

const notSent = (id: Id): Message => errorResponse(id, CODES.REFUSED, 'Bastion did not send this request: another message of the batch was refused.');


/** Arguments kept with an open tools/call (bounded: 128 open requests per session). */
const MAX_ASKED_ARGS = 4096;
/**
 * Why an agent's message is not sent at all, as the JSON-RPC error that answers it: nested too deep to judge, a
 * request sent without an id (a tools/call as a "notification" would skip the call guard; MCP notifications are all
 * notifications/…), or one request too many open in the session.
 */
function unfitMessage(ctx: RelayContext, m: Message): Message | undefined {
  const id = (m.id ?? null) as Id | null;
  if (nestsDeeper(m)) return errorResponse(id, CODES.INVALID_REQUEST, `Bastion did not send this message: it nests deeper than ${MAX_DEPTH} levels.`);
  if (typeof m.method === 'string' && m.id === undefined && !isNotificationMethod(m.method)) return errorResponse(null, CODES.INVALID_REQUEST, `Bastion did not send this message: ${m.method} is a request and needs an id.`);
  if (isRequest(m) && ctx.ledger.agent.size >= MAX_OPEN_PER_SESSION) return errorResponse(id, CODES.REFUSED, `Bastion did not send this request: ${MAX_OPEN_PER_SESSION} requests of this session are still unanswered.`);
  return undefined;
}

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
  // A request at the relay limit is refused before anything else is looked at (session, body), so a loop ends at once.
  app.addHook('preHandler', async (request) => void nextRelayHops(request));
  // The SDK's JSON-RPC schema, loaded by the first MCP request (jsonrpc.ts): messages are checked synchronously after.
  app.addHook('preHandler', async () => {
    await loadJsonRpcSchema();
  });
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

  /**
   * The session the agent presents: the upstream's id (LOCAL_SESSION for one Bastion opened for a server that issues
   * none) and the key of its ledger; 404 when it was not issued to this tenant, server (and, for Bastion's own, key).
   */
  const sessionOf = async (request: FastifyRequest, server: McpServerRow): Promise<Session | undefined> => {
    const presented = request.headers[SESSION];
    if (typeof presented !== 'string') return undefined;
    const upstreamId = (await bindingOf()).unbind(server.tenant_id, server.name, presented, request.principal!.keyId);
    if (upstreamId === undefined) throw new BastionError('MCP_SESSION_NOT_FOUND');
    return { upstreamId, key: `${server.tenant_id}\0${server.name}\0${presented}` };
  };

  /** Headers sent upstream: the MCP ones the agent sent, the unbound session id and the server's credential. */
  const upstreamHeaders = async (request: FastifyRequest, { credential, row: server }: CachedServer, accept: string, session: Session | undefined): Promise<Record<string, string>> => {
    const headers: Record<string, string> = { accept, [HOPS_HEADER]: nextRelayHops(request) };
    const version = request.headers['mcp-protocol-version'];
    if (typeof version === 'string' && /^[\w.-]{1,32}$/.test(version)) headers['mcp-protocol-version'] = version;
    const lastEvent = request.headers['last-event-id'];
    if (typeof lastEvent === 'string' && lastEvent.length <= 256 && !/[\r\n]/.test(lastEvent)) headers['last-event-id'] = lastEvent;
    if (session && session.upstreamId !== LOCAL_SESSION) headers[SESSION] = session.upstreamId;
    if (credential instanceof Error) throw new BastionError('MCP_CREDENTIAL_NEEDS_MASTER_KEY', { cause: credential });
    if (credential !== undefined) headers[credentialHeaderOf(server)] = credential;
    return headers;
  };

  /**
   * The agent's answer headers: rate-limit fields (onSend does not run on a hijacked reply) and the bound session id;
   * when `opens` (an initialize outside a session) and the server issued none, a session of Bastion's own.
   */
  const answerHeaders = async (request: FastifyRequest, server: McpServerRow, upstreamSession: unknown, opens = false): Promise<Record<string, string>> => {
    const headers: Record<string, string> = { 'x-request-id': request.id, ...(request.rateState ? rateLimitHeaders(request.rateState) : {}) };
    if (typeof upstreamSession === 'string') {
      const bound = (await bindingOf()).bind(server.tenant_id, server.name, upstreamSession);
      if (bound) headers[SESSION] = bound;
    } else if (opens) headers[SESSION] = (await bindingOf()).local(server.tenant_id, server.name, request.principal!.keyId);
    return headers;
  };

  const call = (request: FastifyRequest, reply: FastifyReply, ctx: RelayContext, server: McpServerRow, upstreamCall: Omit<UpstreamCall, 'signal'>, opens = false) =>
    forward(request, reply, ctx, upstreamCall, async (answer) => {
      const target: RelayTarget = {
        res: reply.raw,
        headers: await answerHeaders(request, server, answer.headers[SESSION], opens),
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
      // A loopback or private address (in the URL, or the one its name resolves to) on a gateway that does not allow
      // them, e.g. a server registered while they were allowed, after a restart without it: say so.
      const refused = refusedAsPrivate(answer);
      if (ctx.open.size === 0) throw refused ? new BastionError('MCP_UPSTREAM_ADDRESS_REFUSED') : answer;
      reply.hijack();
      const reason = refused ? ADDRESS_REFUSED_REASON : 'the MCP server could not be reached';
      return failOpen(ctx, { res: reply.raw, headers: await answerHeaders(request, ctx.server, undefined), limit: 0, replyUpstream: async () => {} }, reason, refused);
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
    { config: { security: 'apiKey', rateLimited: true, ownJsonDepthBound: true }, schema: { summary: 'MCP proxy: JSON-RPC to a registered upstream MCP server, guarded both ways', description: postDescription, params: Params, body: { description: 'A JSON-RPC 2.0 message (or a batch of up to 16)' }, response: { 200: { description: 'The JSON-RPC answer: application/json, or text/event-stream relayed event by event', type: 'object', additionalProperties: true }, 202: { description: 'Notifications or responses accepted (no body)', type: 'null' } } } },
    async (request, reply) => {
      const messages = messagesOf(request.body);
      if (!messages) throw new RequestValidationError([{ loc: ['body'], msg: 'Send one JSON-RPC 2.0 message (or a batch of 1 to 16)', type: 'value_error.jsonrpc' }]);
      const accept = request.headers.accept ?? '';
      if (!accept.includes('application/json') || !accept.includes('text/event-stream')) throw new BastionError('MCP_NOT_ACCEPTABLE');
      const server = await serverOf(request);
      const session = await sessionOf(request, server.row);
      const opens = !session && messages.some((m) => m.method === 'initialize');
      if (!session && !opens) throw new BastionError('MCP_SESSION_REQUIRED');
      const ctx = relayContext(request, server.row, session && sessionLedger(session.key));
      const headers = await upstreamHeaders(request, server, 'application/json, text/event-stream', session);
      const batch = Array.isArray(request.body);
      const unfit = messages.map((m) => unfitMessage(ctx, m));
      if (unfit.some((u) => u !== undefined)) {
        const all = messages.flatMap((m, i) => unfit[i] ?? (isRequest(m) ? [notSent(m.id)] : []));
        return answerJson(reply, batch ? all : all[0]);
      }

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
        const others = forwarded.filter(isRequest).map((m) => notSent(m.id));
        const all = [...refusals, ...others];
        return answerJson(reply, batch ? all : all[0]);
      }
      for (const m of forwarded) {
        // A cancelled request expects no answer: the session stops waiting for it (a late one is dropped).
        if (m.method === 'notifications/cancelled') ctx.ledger.agent.delete((m.params as { requestId?: Id } | undefined)?.requestId as Id);
        if (!isRequest(m)) continue;
        const params = (m.params ?? {}) as { name?: unknown; arguments?: unknown };
        const call = m.method === 'tools/call' && typeof params.name === 'string';
        const asked = { method: m.method, ...(call ? { tool: params.name as string, args: JSON.stringify(params.arguments ?? {}).slice(0, MAX_ASKED_ARGS) } : {}) };
        ctx.open.set(m.id, asked);
        ctx.ledger.agent.set(m.id, asked);
      }
      const body = JSON.stringify(batch ? forwarded : forwarded[0]);
      await call(request, reply, ctx, server.row, { url: server.row.url, method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body }, opens);
    },
  );

  app.get<{ Params: { name: string } }>(
    '/mcp/servers/:name',
    { config: { security: 'apiKey', rateLimited: true }, schema: { summary: "MCP proxy: the session's standalone SSE stream of server messages, guarded", params: Params, response: { 200: { description: 'text/event-stream', type: 'string' } } } },
    async (request, reply) => {
      if (!(request.headers.accept ?? '').includes('text/event-stream')) throw new BastionError('MCP_NOT_ACCEPTABLE');
      const server = await serverOf(request);
      const session = await sessionOf(request, server.row);
      if (!session) throw new BastionError('MCP_SESSION_REQUIRED');
      const ctx = relayContext(request, server.row, sessionLedger(session.key));
      const headers = await upstreamHeaders(request, server, 'text/event-stream', session);
      await call(request, reply, ctx, server.row, { url: server.row.url, method: 'GET', headers, bodyTimeoutMs: 0 });
    },
  );

  app.delete<{ Params: { name: string } }>(
    '/mcp/servers/:name',
    { config: { security: 'apiKey', rateLimited: true }, schema: { summary: 'MCP proxy: end the session upstream', params: Params, response: { 200: { description: 'Session ended', type: 'null' }, 204: { description: 'Session ended', type: 'null' } } } },
    async (request, reply) => {
      const server = await serverOf(request);
      const session = await sessionOf(request, server.row);
      if (!session) throw new BastionError('MCP_SESSION_REQUIRED');
      forgetSession(session.key);
      // A session of Bastion's own ends here: the server never knew it.
      if (session.upstreamId === LOCAL_SESSION) return reply.code(204).send();
      const ctx = relayContext(request, server.row);
      const headers = await upstreamHeaders(request, server, 'application/json, text/event-stream', session);
      await call(request, reply, ctx, server.row, { url: server.row.url, method: 'DELETE', headers });
    },
  );
}
