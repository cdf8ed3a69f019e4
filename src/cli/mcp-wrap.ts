import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import type { Readable, Writable } from 'node:stream';
import { Agent, request } from 'undici';
import { CODES, errorResponse, type Id, type Message } from '../mcp/proxy/jsonrpc.js';
import { parse } from './args.js';
import { UsageError } from './usage-error.js';

export const WRAP_USAGE = 'mcp wrap --server NAME [--gateway URL] -- COMMAND [ARGS…]   (API key in BASTION_API_KEY)';

/** Longest line (one JSON-RPC message) read from either side; a longer one is not relayed. */
const MAX_LINE = 4 * 1024 * 1024;
/** How long one judgement may take before the message is treated as not judged (never passed on). */
const JUDGE_TIMEOUT_MS = 30_000;

type Verdict = { action: 'forward' | 'refuse' | 'drop'; message?: Message; reply?: Message };
type Judge = (body: { from: 'agent' | 'server'; message: Message; asked?: { method: string; tool?: string } }) => Promise<Verdict>;

/**
 * `bastion mcp wrap --server NAME -- COMMAND …`: runs a stdio MCP server as a child and speaks stdio to the agent in
 * its place, so a desktop agent's configuration points at Bastion instead of the server. Every JSON-RPC line, either
 * way, is judged by the gateway (POST /mcp/wrap/{name}/messages, the guards of the HTTP relay with the tenant's pins
 * and policy) before it is passed on; a message the gateway could not judge is never passed on (requests get a
 * JSON-RPC error, notifications are dropped). The gateway comes from --gateway or BASTION_GATEWAY_URL, the API key
 * from BASTION_API_KEY (not a flag: process lists show arguments). Diagnostics go to stderr, metadata only.
 */
export async function mcpWrapCommand(argv: string[]): Promise<number> {
  const split = argv.indexOf('--');
  if (split < 0 || split === argv.length - 1) throw new UsageError(WRAP_USAGE);
  const { values } = parse(argv.slice(0, split), { server: { type: 'string' }, gateway: { type: 'string' } });
  const server = values.server as string | undefined;
  const gateway = (values.gateway as string | undefined) ?? process.env.BASTION_GATEWAY_URL;
  const key = process.env.BASTION_API_KEY;
  if (!server || !/^[A-Za-z0-9_.-]{1,64}$/.test(server) || !gateway || !key) throw new UsageError(`${WRAP_USAGE}; set BASTION_GATEWAY_URL (or --gateway) and BASTION_API_KEY`);
  const [command, ...args] = argv.slice(split + 1);

  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<number>((resolve) => {
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on('error', (err) => {
      process.stderr.write(`bastion: could not start ${command}: ${err.message}\n`);
      resolve(127);
    });
  });
  const { judge, close } = gatewayJudge(gateway, key, server);
  const { serverDone } = relay(process.stdin, process.stdout, child.stdin, child.stdout, judge);
  process.stdin.on('end', () => child.stdin.end());
  const code = await exited;
  await serverDone; // what the server said before it exited is still judged and passed on
  process.stdin.destroy();
  await close();
  return code;
}

function gatewayJudge(gateway: string, key: string, server: string): { judge: Judge; close: () => Promise<void> } {
  const dispatcher = new Agent({ keepAliveTimeout: 30_000 });
  const url = new URL(`mcp/wrap/${encodeURIComponent(server)}/messages`, gateway.endsWith('/') ? gateway : `${gateway}/`);
  const judge: Judge = async (body) => {
    const res = await request(url, { method: 'POST', dispatcher, headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify(body), signal: AbortSignal.timeout(JUDGE_TIMEOUT_MS) });
    const text = await res.body.text();
    if (res.statusCode !== 200) {
      const code = (JSON.parse(text || '{}') as { error?: { code?: string } }).error?.code ?? `HTTP ${res.statusCode}`;
      throw new Error(code);
    }
    return JSON.parse(text) as Verdict;
  };
  return { judge, close: () => dispatcher.close() };
}

/**
 * The two directions, each in order (a message is passed on only after the ones before it). Agent → server: guard
 * point [B]; the agent's requests are recorded before they reach the server, so the server's answers are judged by
 * what was asked (guard point [A]). An answer whose id is not an open request (not sent yet, refused, or answered
 * already) is never passed on: the agent may already wait on that id, and nothing says what it would be judged as.
 * Exported for tests.
 */
export function relay(agentIn: Readable, agentOut: Writable, serverIn: Writable, serverOut: Readable, judge: Judge): { serverDone: Promise<void> } {
  const open = new Map<Id, { method: string; tool?: string }>();
  const send = (out: Writable, message: Message) => out.writable && out.write(JSON.stringify(message) + '\n');
  const warn = (what: string) => process.stderr.write(`bastion: ${what}\n`);
  // A server may flood answers for ids the agent is about to use, hoping one overtakes the request: the first such
  // answer is reported, then one line per 1,000 (stderr writes to a pipe are synchronous; a flood must not stall us).
  let unsolicited = 0;
  const dropped = () => unsolicited++ % 1000 === 0 && warn(`the server sent an answer for a request the wrapper did not send (or answered twice): not passed to the agent (${unsolicited} so far)`);

  lines(agentIn, async (message) => {
    if (message === undefined) return send(agentOut, errorResponse(null, -32700, 'Bastion: not a JSON-RPC message (or longer than 4 MB).'));
    const id = message.id as Id | undefined;
    const request = typeof message.method === 'string' && id !== undefined;
    try {
      const verdict = await judge({ from: 'agent', message });
      if (verdict.action === 'refuse' && verdict.message) return send(agentOut, verdict.message);
      if (verdict.action !== 'forward' || !verdict.message) return;
      if (request) {
        const params = (message.params ?? {}) as { name?: unknown };
        open.set(id, { method: message.method as string, ...(message.method === 'tools/call' && typeof params.name === 'string' ? { tool: params.name } : {}) });
      }
      send(serverIn, verdict.message);
    } catch (err) {
      warn(`a message from the agent was not judged (${(err as Error).message}): not sent to the server`);
      if (request) send(agentOut, errorResponse(id, CODES.REFUSED, 'Bastion refused this request: the gateway could not judge it.', { bastion: { action: 'block', reason: 'inspection_failed' } }));
    }
  });

  const serverDone = lines(serverOut, async (message) => {
    if (message === undefined) return warn('the server sent a line that is not JSON-RPC: not relayed');
    const id = message.id as Id | undefined;
    const response = message.method === undefined && id !== undefined;
    const asked = response ? open.get(id) : undefined;
    if (response && !asked) return dropped(); // never asked, or answered already: no agent is waiting for it
    if (response) open.delete(id);
    try {
      const verdict = await judge({ from: 'server', message, ...(asked ? { asked } : {}) });
      if (verdict.action === 'forward' && verdict.message) send(agentOut, verdict.message);
      else if (verdict.reply) send(serverIn, verdict.reply);
    } catch (err) {
      warn(`a message from the server was not judged (${(err as Error).message}): not passed to the agent`);
      if (response) send(agentOut, errorResponse(id, CODES.WITHHELD, "Bastion withheld the server's answer: the gateway could not judge it.", { bastion: { action: 'block', reason: 'inspection_failed' } }));
      else if (typeof message.method === 'string' && id !== undefined) send(serverIn, errorResponse(id, CODES.WITHHELD, 'Bastion withheld this request from the agent: the gateway could not judge it.'));
    }
  });
  return { serverDone };
}

/**
 * Newline-delimited JSON-RPC (the MCP stdio framing), one line at a time in order. The next chunk is read only once the
 * lines before it are handled, so a side that writes faster than the gateway judges waits (the pipe's buffer fills); a
 * line longer than MAX_LINE is dropped as it streams, never held whole, and handled as a line that is not a message.
 */
async function lines(input: Readable, handle: (message: Message | undefined) => Promise<unknown>): Promise<void> {
  const decoder = new StringDecoder('utf8');
  let partial = '';
  let oversized = false;
  const finish = async (line: string) => {
    const text = oversized ? undefined : line.endsWith('\r') ? line.slice(0, -1) : line;
    oversized = false;
    if (text?.trim() === '') return;
    await handle(text === undefined ? undefined : parseLine(text)).catch(() => undefined);
  };
  try {
    for await (const chunk of input) {
      let text = decoder.write(chunk as Buffer);
      for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n')) {
        await finish(partial + text.slice(0, nl));
        partial = '';
        text = text.slice(nl + 1);
      }
      if (!oversized) partial += text;
      if (partial.length > MAX_LINE) {
        oversized = true;
        partial = '';
      }
    }
  } catch {
    // The pipe broke: what was read is handled, nothing more will come.
  }
  const rest = partial + decoder.end();
  if (oversized || rest.trim() !== '') await finish(rest);
}

function parseLine(line: string): Message | undefined {
  if (line.length > MAX_LINE) return undefined;
  try {
    const value = JSON.parse(line) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) && (value as { jsonrpc?: unknown }).jsonrpc === '2.0' ? (value as Message) : undefined;
  } catch {
    return undefined;
  }
}
