import type { Api } from './flow-scenarios.js';

/**
 * The scripted model's whole answer as the vendor would stream it: chat completion chunks (tool-call arguments in
 * two pieces) ending in `[DONE]`; Anthropic Messages events (tool inputs as `input_json_delta`, server tool results
 * whole in their `content_block_start`, text and citations as deltas); Responses events (items added, argument and
 * text deltas, items done, `response.completed` with the whole response).
 */

type Obj = Record<string, unknown>;

const halves = (s: string) => [s.slice(0, Math.ceil(s.length / 2)), s.slice(Math.ceil(s.length / 2))].filter(Boolean);

export function sseOf(api: Api, answer: Obj): string {
  if (api === 'chat') return chatEvents(answer);
  if (api === 'messages') return messagesEvents(answer);
  return responsesEvents(answer);
}

function chatEvents(answer: Obj): string {
  const choice = (answer.choices as Obj[])[0];
  const message = choice.message as Obj;
  const chunk = (delta: Obj, finish: string | null = null) => `data: ${JSON.stringify({ id: answer.id, object: 'chat.completion.chunk', created: answer.created, model: answer.model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
  let out = chunk({ role: 'assistant', content: null });
  const calls = (message.tool_calls as Obj[] | undefined) ?? [];
  calls.forEach((c, index) => {
    const fn = c.function as { name: string; arguments: string };
    out += chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: fn.name, arguments: '' } }] });
    for (const piece of halves(fn.arguments)) out += chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
  });
  if (typeof message.content === 'string') for (const piece of halves(message.content)) out += chunk({ content: piece });
  return out + chunk({}, String(choice.finish_reason)) + 'data: [DONE]\n\n';
}

function messagesEvents(answer: Obj): string {
  const ev = (type: string, data: Obj) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  let out = ev('message_start', { message: { ...answer, content: [], stop_reason: null, usage: { input_tokens: 1, output_tokens: 0 } } });
  (answer.content as Obj[]).forEach((block, index) => {
    if (block.type === 'tool_use' || block.type === 'server_tool_use') {
      out += ev('content_block_start', { index, content_block: { ...block, input: {} } });
      for (const piece of halves(JSON.stringify(block.input))) out += ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } });
    } else if (block.type === 'text') {
      out += ev('content_block_start', { index, content_block: { type: 'text', text: '' } });
      for (const citation of (block.citations as Obj[] | undefined) ?? []) out += ev('content_block_delta', { index, delta: { type: 'citations_delta', citation } });
      for (const piece of halves(String(block.text))) out += ev('content_block_delta', { index, delta: { type: 'text_delta', text: piece } });
    } else {
      out += ev('content_block_start', { index, content_block: block });
    }
    out += ev('content_block_stop', { index });
  });
  out += ev('message_delta', { delta: { stop_reason: answer.stop_reason, stop_sequence: null }, usage: { output_tokens: 1 } });
  return out + ev('message_stop', {});
}

function responsesEvents(answer: Obj): string {
  let sequence = 0;
  const ev = (type: string, data: Obj) => `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`;
  let out = ev('response.created', { response: { ...answer, status: 'in_progress', output: [] } });
  (answer.output as Obj[]).forEach((item, output_index) => {
    const item_id = item.id;
    if (item.type === 'function_call') {
      out += ev('response.output_item.added', { output_index, item: { ...item, arguments: '', status: 'in_progress' } });
      for (const delta of halves(String(item.arguments))) out += ev('response.function_call_arguments.delta', { output_index, item_id, delta });
      out += ev('response.function_call_arguments.done', { output_index, item_id, arguments: item.arguments });
    } else if (item.type === 'message') {
      const part = (item.content as Obj[])[0];
      out += ev('response.output_item.added', { output_index, item: { ...item, content: [], status: 'in_progress' } });
      out += ev('response.content_part.added', { output_index, item_id, content_index: 0, part: { ...part, text: '', annotations: [] } });
      for (const delta of halves(String(part.text))) out += ev('response.output_text.delta', { output_index, item_id, content_index: 0, delta });
      out += ev('response.output_text.done', { output_index, item_id, content_index: 0, text: part.text });
      out += ev('response.content_part.done', { output_index, item_id, content_index: 0, part });
    } else {
      out += ev('response.output_item.added', { output_index, item: { ...item, status: 'in_progress' } });
      out += ev('response.web_search_call.in_progress', { output_index, item_id });
      out += ev('response.web_search_call.searching', { output_index, item_id });
      out += ev('response.web_search_call.completed', { output_index, item_id });
    }
    out += ev('response.output_item.done', { output_index, item });
  });
  return out + ev('response.completed', { response: answer });
}
