import { z } from 'zod';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { startTestGateway, type TestGateway } from '../../helpers/gateway.js';
import type { StorageBackend } from '../../helpers/backends.js';
import { call } from '../../helpers/http.js';
import { MASTER_KEY } from '../../helpers/portal.js';

interface Teardown {
  teardown(fn: () => unknown): void;
}

export interface Upstream {
  url: string;
  /** Every request the upstream received (method and the JSON-RPC methods of its body), to prove what never arrived. */
  seen: { http: string; methods: string[]; authorization?: string }[];
  /** Cuts every open connection (the server "dies" mid-call). */
  cut(): void;
}

/**
 * A real MCP server (the SDK's McpServer) on loopback, Streamable HTTP with sessions, one McpServer per session.
 * `setup` registers its tools on each new session's server.
 */
export async function startUpstreamMcp(t: Teardown, setup: (server: McpServer, upstream: Upstream) => void): Promise<Upstream> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const sockets = new Set<Socket>();
  const upstream: Upstream = { url: '', seen: [], cut: () => sockets.forEach((s) => s.destroy()) };
  const http: Server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    let body: unknown;
    if (req.method === 'POST') {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      body = JSON.parse(Buffer.concat(chunks).toString());
    }
    const list = Array.isArray(body) ? body : body ? [body] : [];
    upstream.seen.push({ http: req.method!, methods: list.map((m: { method?: string }) => m.method ?? 'response'), authorization: req.headers.authorization });
    const sid = req.headers['mcp-session-id'] as string | undefined;
    let transport = sid ? sessions.get(sid) : undefined;
    if (!transport && req.method === 'POST' && list.some((m) => isInitializeRequest(m))) {
      const server = new McpServer({ name: 'upstream', version: '1.0.0' }, { capabilities: { tools: { listChanged: true }, resources: {}, prompts: {}, logging: {} } });
      setup(server, upstream);
      transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => void sessions.set(id, transport!) });
      transport.onclose = () => transport?.sessionId && sessions.delete(transport.sessionId);
      await server.connect(transport);
    }
    if (!transport) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
      return;
    }
    await transport.handleRequest(req, res, body);
  });
  http.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  t.teardown(async () => {
    upstream.cut();
    await new Promise((resolve) => http.close(resolve));
  });
  upstream.url = `http://127.0.0.1:${(http.address() as { port: number }).port}/mcp`;
  return upstream;
}

/**
 * Starts a hand-written upstream on a loopback port; at teardown its connections are cut (open SSE streams too) and
 * it is closed. Returns its base URL (`http://127.0.0.1:<port>`).
 */
export async function listenLoopback(t: Teardown, http: Server): Promise<string> {
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    http.closeAllConnections();
    return new Promise((resolve) => http.close(resolve));
  });
  return `http://127.0.0.1:${(http.address() as { port: number }).port}`;
}

/** A gateway that may reach loopback upstreams and seal credentials. */
export function proxyGateway(t: Teardown, storage: StorageBackend = 'sqlite'): Promise<TestGateway> {
  return startTestGateway(t, { storage, config: { masterKey: MASTER_KEY, mcpPrivateUpstreams: true } });
}

/** Registers an upstream through the admin route, as a tenant admin would. */
export async function register(gw: TestGateway, key: string, name: string, body: Record<string, unknown>): Promise<void> {
  const reply = await call(`${gw.adminUrl}/mcp/servers/${name}`, { method: 'PUT', headers: { 'x-api-key': key }, body });
  if (reply.status !== 201 && reply.status !== 200) throw new Error(`register ${name}: ${reply.status} ${reply.body}`);
}

/** A real SDK client connected to Bastion's /mcp/servers/{name} with a Bastion key. */
export async function agent(gw: TestGateway, key: string, name: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'agent', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${gw.proxyUrl}/mcp/servers/${name}`), { requestInit: { headers: { 'x-api-key': key } } });
  await client.connect(transport);
  return { client, transport };
}

/** A gateway, a key of tenant `acme`, `url` registered as `name`, and a real SDK client connected to it through Bastion. */
export async function proxiedAgent(t: Teardown, name: string, url: string) {
  const gw = await proxyGateway(t);
  const key = await gw.key('acme', { rate: 10_000 });
  await register(gw, key, name, { url });
  const { client, transport } = await agent(gw, key, name);
  t.teardown(() => client.close());
  return { gw, key, client, transport };
}

/** An MCP mail server: `read_inbox` answers `inbox`, `send_email` records each recipient in `sent`. */
export async function startMailMcp(t: Teardown, inbox: string): Promise<Upstream & { sent: string[] }> {
  const sent: string[] = [];
  const upstream = await startUpstreamMcp(t, (server) => {
    server.registerTool('read_inbox', { description: 'Reads the inbox.', inputSchema: {} }, async () => ({ content: [{ type: 'text', text: inbox }] }));
    server.registerTool('send_email', { description: 'Sends an e-mail.', inputSchema: { to: z.string(), body: z.string() } }, async ({ to }) => {
      sent.push(to);
      return { content: [{ type: 'text', text: 'sent' }] };
    });
  });
  return Object.assign(upstream, { sent });
}
