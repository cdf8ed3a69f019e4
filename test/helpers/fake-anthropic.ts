import type { ServerResponse } from 'node:http';

/**
 * The Anthropic Messages API wire format, for fake upstreams: Message objects, content blocks, error bodies and the SSE
 * events a streamed message is made of (`event: <type>` + `data: <json>`, a ping after message_start, text and tool
 * input split over many deltas as the API writes them).
 */
type Obj = Record<string, unknown>;

export function anthropicMessage(content: Obj[], extra: Obj = {}): Obj {
  const stop = content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
  return {
    id: 'msg_01FakeUpstream',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5',
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: { input_tokens: 21, output_tokens: 9, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    ...extra,
  };
}

export const textBlock = (text: string): Obj => ({ type: 'text', text });
export const toolUseBlock = (id: string, name: string, input: Obj): Obj => ({ type: 'tool_use', id, name, input });
export const thinkingBlock = (thinking: string, signature: string): Obj => ({ type: 'thinking', thinking, signature });

export function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** The events of a streamed message whose final form is `message`, text and tool input sent `size` characters a delta. */
export function messageEvents(message: Obj, size = 4): Obj[] {
  const content = message.content as Obj[];
  const usage = message.usage as Obj;
  const events: Obj[] = [
    { type: 'message_start', message: { ...message, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } },
    { type: 'ping' },
  ];
  content.forEach((block, index) => {
    if (block.type === 'text') {
      events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      for (const text of pieces(block.text as string, size)) events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } });
    } else if (block.type === 'tool_use') {
      events.push({ type: 'content_block_start', index, content_block: { ...block, input: {} } });
      events.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: '' } });
      for (const partial_json of pieces(JSON.stringify(block.input), size)) events.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } });
    } else if (block.type === 'thinking') {
      events.push({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } });
      for (const thinking of pieces(block.thinking as string, size)) events.push({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking } });
      events.push({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block.signature } });
    } else {
      // Server-side tool blocks (server_tool_use, web_fetch_tool_result …) arrive whole in their start event.
      events.push({ type: 'content_block_start', index, content_block: block });
    }
    events.push({ type: 'content_block_stop', index });
  });
  events.push({ type: 'message_delta', delta: { stop_reason: message.stop_reason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } });
  events.push({ type: 'message_stop' });
  return events;
}

/** One event as the API frames it. */
export const frame = (e: Obj) => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`;

/** Writes events as the API does, each split across two TCP writes; `cutAfter`: the connection is destroyed after that many. */
export async function sendAnthropicEvents(res: ServerResponse, events: Obj[], options: { gapMs?: number; cutAfter?: number } = {}): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'request-id': 'req_upstream_1' });
  for (const [i, e] of events.entries()) {
    if (options.cutAfter !== undefined && i >= options.cutAfter) {
      // What was written reaches the client first; then the connection is reset mid-body.
      await new Promise<void>((resolve) => res.write('', () => resolve()));
      await new Promise((resolve) => setTimeout(resolve, 20));
      res.socket?.destroy();
      return;
    }
    const text = frame(e);
    const half = Math.floor(text.length / 2);
    res.write(text.slice(0, half));
    res.write(text.slice(half));
    if (options.gapMs) await new Promise((r) => setTimeout(r, options.gapMs));
    if (res.destroyed) return;
  }
  res.end();
}

/** An Anthropic error body with its status. */
export function sendAnthropicError(res: ServerResponse, status: number, type: string, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_upstream_err' });
  res.end(JSON.stringify({ type: 'error', error: { type, message }, request_id: 'req_upstream_err' }));
}

export function sendAnthropicJson(res: ServerResponse, body: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_upstream_1' });
  res.end(JSON.stringify(body));
}

/** Reads an Anthropic SSE body as the list of its events (data parsed), checking each frame's event line names its type. */
export function parseAnthropicEvents(body: string): Obj[] {
  return body
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const [eventLine, dataLine] = block.split('\n');
      const data = JSON.parse(dataLine.slice('data: '.length)) as Obj;
      if (eventLine !== `event: ${String(data.type)}`) throw new Error(`event line ${eventLine} does not name ${String(data.type)}`);
      return data;
    });
}
