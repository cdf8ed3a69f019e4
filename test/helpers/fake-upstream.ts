import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export interface Received {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  json<T = Record<string, unknown>>(): T;
}

export type Handler = (req: Received, res: ServerResponse) => void | Promise<void>;

export interface FakeUpstream {
  url: string;
  received: Received[];
  /** Replaces the handler for the next requests (default: 404). */
  on(handler: Handler): void;
  /** Requests aborted by the client (Bastion) before the handler finished. */
  aborted: number;
  close(): Promise<void>;
}

interface Teardown {
  teardown(fn: () => unknown): void;
}

/** A real HTTP server on 127.0.0.1 that records what it received and answers as the test says. */
export async function fakeUpstream(t: Teardown): Promise<FakeUpstream> {
  let handler: Handler = (_req, res) => {
    res.writeHead(404).end();
  };
  const state: FakeUpstream = {
    url: '',
    received: [],
    aborted: 0,
    on: (h) => {
      handler = h;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const received: Received = { method: req.method!, path: req.url!, headers: req.headers, body, json: <T>() => JSON.parse(body) as T };
    state.received.push(received);
    res.on('close', () => {
      if (!res.writableFinished) state.aborted++;
    });
    await handler(received, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  t.teardown(() => {
    server.closeAllConnections();
    return state.close();
  });
  return state;
}

/** OpenAI wire format helpers. */
export function completion(message: Record<string, unknown>, finish = 'stop'): Record<string, unknown> {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'gpt-4o-mini',
    choices: [{ index: 0, message: { role: 'assistant', refusal: null, ...message }, logprobs: null, finish_reason: finish }],
    usage: { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 },
  };
}

export function chunk(delta: Record<string, unknown>, finish: string | null = null): Record<string, unknown> {
  return { id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'gpt-4o-mini', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'upstream-req-1', 'openai-processing-ms': '12' });
  res.end(text);
}

/** Writes SSE events, optionally spaced in time; splits each event across two TCP writes to exercise reassembly. */
export async function sendStream(res: ServerResponse, events: unknown[], gapMs = 0): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const e of events) {
    const line = `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`;
    const half = Math.floor(line.length / 2);
    res.write(line.slice(0, half));
    res.write(line.slice(half));
    if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
    if (res.destroyed) return;
  }
  res.end();
}

/** Splits a tool call's arguments over many deltas, as models do. */
export function toolCallDeltas(index: number, id: string, name: string, args: string, pieces = 6): Record<string, unknown>[] {
  const size = Math.ceil(args.length / pieces);
  const out: Record<string, unknown>[] = [chunk({ tool_calls: [{ index, id, type: 'function', function: { name, arguments: '' } }] })];
  for (let i = 0; i < args.length; i += size) out.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(i, i + size) } }] }));
  return out;
}
