import type { ServerResponse } from 'node:http';

/**
 * The OpenAI Responses API wire format, for fake upstreams: Response objects, output items, and the semantic SSE
 * events a streamed Response is made of (`event: <type>` + `data: <json>`, sequence numbers, arguments and text split
 * over many deltas as models write them).
 */
type Obj = Record<string, unknown>;

export function responseObject(output: Obj[], extra: Obj = {}): Obj {
  return {
    id: 'resp_fake1',
    object: 'response',
    created_at: 1_700_000_000,
    status: 'completed',
    error: null,
    incomplete_details: null,
    instructions: null,
    model: 'gpt-4.1-mini',
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    store: true,
    temperature: 1,
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    metadata: {},
    usage: { input_tokens: 12, input_tokens_details: { cached_tokens: 0 }, output_tokens: 7, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 19 },
    ...extra,
  };
}

export function messageItem(text: string, id = 'msg_fake1'): Obj {
  return { type: 'message', id, status: 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] };
}

export function functionCallItem(callId: string, name: string, args: string, id = `fc_${callId}`): Obj {
  return { type: 'function_call', id, call_id: callId, name, arguments: args, status: 'completed' };
}

function pieces(text: string, n: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / n));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** The events of a streamed Response whose final form is `response`, each text and argument split into `split` deltas. */
export function responseEvents(response: Obj, split = 5): Obj[] {
  const output = response.output as Obj[];
  const start = { ...response, status: 'in_progress', output: [], usage: null };
  const events: Obj[] = [
    { type: 'response.created', response: start },
    { type: 'response.in_progress', response: start },
  ];
  output.forEach((item, output_index) => {
    if (item.type === 'message') {
      events.push({ type: 'response.output_item.added', output_index, item: { ...item, status: 'in_progress', content: [] } });
      (item.content as Obj[]).forEach((part, content_index) => {
        const at = { item_id: item.id, output_index, content_index };
        events.push({ type: 'response.content_part.added', ...at, part: { type: 'output_text', text: '', annotations: [] } });
        for (const delta of pieces(part.text as string, split)) events.push({ type: 'response.output_text.delta', ...at, delta, logprobs: [] });
        events.push({ type: 'response.output_text.done', ...at, text: part.text, logprobs: [] });
        events.push({ type: 'response.content_part.done', ...at, part });
      });
    } else if (item.type === 'function_call') {
      events.push({ type: 'response.output_item.added', output_index, item: { ...item, arguments: '', status: 'in_progress' } });
      for (const delta of pieces(item.arguments as string, split)) events.push({ type: 'response.function_call_arguments.delta', item_id: item.id, output_index, delta });
      events.push({ type: 'response.function_call_arguments.done', item_id: item.id, output_index, arguments: item.arguments });
    } else {
      events.push({ type: 'response.output_item.added', output_index, item });
    }
    events.push({ type: 'response.output_item.done', output_index, item });
  });
  events.push({ type: `response.${String(response.status)}`, response });
  return events.map((e, sequence_number) => ({ ...e, sequence_number }));
}

/** Writes events as the API does (`event:` and `data:` lines), each split across two TCP writes, optionally spaced. */
export async function sendEvents(res: ServerResponse, events: Obj[], gapMs = 0): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  for (const e of events) {
    const text = `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`;
    const half = Math.floor(text.length / 2);
    res.write(text.slice(0, half));
    res.write(text.slice(half));
    if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
    if (res.destroyed) return;
  }
  res.end();
}

/** Reads a Responses SSE body as the list of its events (data parsed). */
export function parseEvents(body: string): Obj[] {
  return body
    .split('\n\n')
    .map((block) => block.split('\n').find((l) => l.startsWith('data: ')))
    .filter((l): l is string => l !== undefined)
    .map((l) => JSON.parse(l.slice(6)) as Obj);
}
