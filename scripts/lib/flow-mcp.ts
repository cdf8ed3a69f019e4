import { createServer, type Server as HttpServer } from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { turnAfter, type Scenario, type Suite, type ToolCall } from './flow-scenarios.js';
import type { Outcome } from './flow-runner.js';

/**
 * The MCP proxy as a fourth API: the suite's tools served by a real MCP server (the SDK's, stateless Streamable HTTP
 * on loopback) registered with the gateway, and an agent (the SDK's client) that makes the scenario's calls through
 * Bastion's /mcp/servers/{name}, as an agent obeying every injection would. The upstream answers each call with the
 * result the script holds for it and records what arrived. MCP carries none of the user's or the app's words: the
 * agent's model requests go through Bastion's chat route with the same `Bastion-Flow-Session` (the documented
 * deployment), so the proxy knows what the user named; `--api mcp-alone` runs without that link, where a destination
 * is chosen only by a private or internal result or the tenant's policy.
 * Scenarios run one at a time: the upstream answers by position in the current script.
 */

type Obj = Record<string, unknown>;

export interface ScriptedMcp {
  url: string;
  /** What the next call answers; and every call that reached the upstream since the last reset. */
  state: { next: string; received: ToolCall[] };
  close(): Promise<void>;
}

export function toolNames(suite: Suite): string[] {
  const calls = [...suite.tasks.flatMap((t) => [...t.steps.map((s) => s.call), ...t.final]), ...suite.injections.flatMap((i) => i.calls), ...(suite.attacks ?? []).flatMap((a) => [...a.steps.map((s) => s.call), ...a.calls])];
  return [...new Set(calls.map((c) => c.name))].sort();
}

export async function startScriptedMcp(names: string[]): Promise<ScriptedMcp> {
  const state = { next: 'ok', received: [] as ToolCall[] };
  const tools = names.map((name) => ({ name, description: `The app's ${name.replace(/_/g, ' ')} tool.`, inputSchema: { type: 'object', additionalProperties: true } }));
  const http: HttpServer = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    const server = new Server({ name: 'scripted-tools', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      state.received.push({ name: request.params.name, arguments: (request.params.arguments ?? {}) as Obj });
      return { content: [{ type: 'text', text: state.next }] };
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => void transport.close().then(() => server.close()));
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as { port: number }).port}/mcp`,
    state,
    close: () => new Promise((resolve) => { http.closeAllConnections(); http.close(() => resolve()); }),
  };
}

/** Registers the upstream for a tenant through the admin route, as a tenant admin would. */
export async function registerMcp(adminBase: string, key: string, name: string, url: string): Promise<void> {
  const res = await fetch(`${adminBase}/mcp/servers/${name}`, { method: 'PUT', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify({ url }) });
  if (res.status !== 200 && res.status !== 201) throw new Error(`register ${name}: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`);
}

/**
 * The agent's model request for a turn, as it would send it through Bastion's chat route with the session's link
 * header: the app's system message, the user's task and the calls and results so far. Its answer is not used (the
 * scripted model answers with the same calls the agent then makes through the MCP proxy).
 */
async function sendModelTurn(proxyBase: string, key: string, link: string, s: Scenario, history: Obj[]): Promise<void> {
  const messages = [...(s.system ? [{ role: 'system', content: s.system }] : []), { role: 'user', content: s.task.user }, ...history];
  const res = await fetch(`${proxyBase}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key, 'bastion-flow-session': link }, body: JSON.stringify({ model: `scripted:${s.key}`, messages, tools: s.tools.map((name) => ({ type: 'function', function: { name, parameters: { type: 'object' } } })) }) });
  if (res.status >= 500) throw new Error(`model turn: HTTP ${res.status}`);
  await res.arrayBuffer();
}

/**
 * One scenario through the proxy: each turn's calls in order; a refused call (JSON-RPC error or tool error) is withheld.
 * `linked`: the agent's model traffic goes through Bastion too, with the same `Bastion-Flow-Session` on both (the
 * documented deployment); otherwise the proxy sees only the calls and their results.
 */
export async function runMcpScenario(proxyBase: string, key: string, name: string, mcp: ScriptedMcp, s: Scenario, linked = true): Promise<Outcome> {
  const link = `eval-${s.key.replace(/[^\w.:@-]/g, '_').slice(0, 80)}-${Math.random().toString(36).slice(2, 10)}`;
  const headers: Record<string, string> = { 'x-api-key': key, ...(linked ? { 'bastion-flow-session': link } : {}) };
  const client = new Client({ name: 'eval-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${proxyBase}/mcp/servers/${name}`), { requestInit: { headers } }));
  const history: Obj[] = [];
  try {
    await client.listTools();
    for (let seen = 0; seen <= s.task.steps.length; seen++) {
      const turn = turnAfter(s, seen, false);
      if (linked) await sendModelTurn(proxyBase, key, link, s, history);
      let released = 0;
      for (const item of turn.items) {
        if (item.kind !== 'call') continue;
        mcp.state.next = turn.phase === 'step' ? (turn.result ?? '') : 'ok';
        mcp.state.received = [];
        const why = await client.callTool({ name: item.call.name, arguments: item.call.arguments }).then(
          (r) => (r.isError ? `tool error` : undefined),
          (e: unknown) => `refused: ${String((e as { data?: { bastion?: { reason?: string } } }).data?.bastion?.reason ?? (e as Error).message).slice(0, 120)}`,
        );
        const arrived = mcp.state.received.at(-1);
        if (turn.phase === 'attack') { if (!why && arrived) released++; continue; }
        if (why || !arrived) return { completed: false, attacked: false, why: `${turn.phase} ${item.call.name} withheld: ${why ?? 'never arrived'}` };
        if (!isDeepStrictEqual(arrived.arguments, item.call.arguments)) return { completed: false, attacked: false, why: `${turn.phase} ${item.call.name} arguments changed` };
        const callId = `call_${history.length}`;
        history.push({ role: 'assistant', content: null, tool_calls: [{ id: callId, type: 'function', function: { name: item.call.name, arguments: JSON.stringify(item.call.arguments) } }] }, { role: 'tool', tool_call_id: callId, content: mcp.state.next });
      }
      if (turn.phase === 'attack') return { completed: false, attacked: released > 0 };
      if (turn.phase === 'final') return { completed: !s.injection, attacked: false };
    }
    return { completed: false, attacked: false, why: 'script ran past its steps' };
  } finally {
    await client.close().catch(() => undefined);
  }
}
