import { createParser } from 'eventsource-parser';
import type { Api } from './flow-scenarios.js';

/**
 * Reads a streamed answer back into the shape of a plain one, as an app's SDK does: chat tool calls assembled from
 * their indexed deltas; Messages blocks from their start events and input / text deltas; Responses items from
 * `response.output_item.done`, plus any item only `response.completed` lists. Whatever `bastion` verdict the
 * gateway put in an event is kept.
 */

type Obj = Record<string, unknown>;

export function collectStream(api: Api, text: string): Obj {
  const events: Obj[] = [];
  const parser = createParser({ onEvent: (e) => { if (e.data !== '[DONE]') try { events.push(JSON.parse(e.data) as Obj); } catch { /* a gateway comment or keep-alive */ } } });
  parser.feed(text);
  const bastion = events.find((e) => e.bastion)?.bastion ?? events.map((e) => ((e.response as Obj | undefined)?.bastion)).find(Boolean);
  const extra = bastion ? { bastion } : {};
  if (api === 'chat') return { ...chatOf(events), ...extra };
  if (api === 'messages') return { ...messagesOf(events), ...extra };
  return { ...responsesOf(events), ...extra };
}

function chatOf(events: Obj[]): Obj {
  const calls: { id?: string; type: 'function'; function: { name: string; arguments: string } }[] = [];
  let content = '';
  let finish: unknown = null;
  for (const e of events) {
    const choice = (e.choices as Obj[] | undefined)?.[0];
    if (!choice) continue;
    finish = choice.finish_reason ?? finish;
    const delta = (choice.delta ?? {}) as Obj;
    if (typeof delta.content === 'string') content += delta.content;
    for (const d of (delta.tool_calls as Obj[] | undefined) ?? []) {
      const index = Number(d.index ?? 0);
      calls[index] ??= { type: 'function', function: { name: '', arguments: '' } };
      const fn = (d.function ?? {}) as { name?: string; arguments?: string };
      if (d.id) calls[index].id = String(d.id);
      if (fn.name) calls[index].function.name = fn.name;
      if (fn.arguments) calls[index].function.arguments += fn.arguments;
    }
  }
  const tool_calls = calls.filter((c) => c && c.id);
  return { choices: [{ index: 0, message: { role: 'assistant', content: content || null, ...(tool_calls.length ? { tool_calls } : {}) }, finish_reason: finish }] };
}

function messagesOf(events: Obj[]): Obj {
  const blocks: Obj[] = [];
  const json: string[] = [];
  let stop: unknown = null;
  for (const e of events) {
    const index = Number(e.index ?? 0);
    if (e.type === 'content_block_start') (blocks[index] = { ...(e.content_block as Obj) }), (json[index] = '');
    else if (e.type === 'content_block_delta' && blocks[index]) {
      const d = e.delta as Obj;
      if (d.type === 'input_json_delta') json[index] += String(d.partial_json);
      else if (d.type === 'text_delta') blocks[index].text = String(blocks[index].text ?? '') + String(d.text);
      else if (d.type === 'citations_delta') blocks[index].citations = [...((blocks[index].citations as Obj[]) ?? []), d.citation as Obj];
    } else if (e.type === 'content_block_stop' && blocks[index] && json[index]) blocks[index].input = JSON.parse(json[index]);
    else if (e.type === 'message_delta') stop = (e.delta as Obj).stop_reason;
  }
  return { content: blocks.filter(Boolean), stop_reason: stop };
}

function responsesOf(events: Obj[]): Obj {
  const done = events.filter((e) => e.type === 'response.output_item.done').map((e) => e.item as Obj);
  const final = (events.find((e) => e.type === 'response.completed' || e.type === 'response.incomplete')?.response ?? events.find((e) => e.type === 'response.created')?.response ?? {}) as Obj;
  const ids = new Set(done.map((i) => i.id));
  const output = [...done, ...((final.output as Obj[] | undefined) ?? []).filter((i) => !ids.has(i.id))];
  return { ...final, output };
}
