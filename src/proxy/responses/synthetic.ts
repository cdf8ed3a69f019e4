import { randomBytes } from 'node:crypto';
import type { BastionInfo } from '../chat/verdict-summary.js';

/**
 * Response objects (OpenAI Responses API) Bastion writes itself, in the API's own shapes so the SDK parses them:
 * a blocked request is a Response with status "incomplete", incomplete_details.reason "content_filter" and one
 * assistant message whose content is a `refusal` part, plus the `bastion` verdict; a shadow-banned entity gets a
 * plausible completed decoy. Streams carry the same object through the API's semantic events.
 */
export const REFUSAL = 'This request was blocked by the security gateway.';
export const CALL_REFUSAL = 'A tool call was blocked by the security gateway.';
const DECOY = "I'm sorry, I can't help with that right now. Please try again later.";

const id = (prefix: string) => `${prefix}_bst${randomBytes(12).toString('hex')}`;
const EMPTY_USAGE = { input_tokens: 0, input_tokens_details: { cached_tokens: 0 }, output_tokens: 0, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 0 };

export interface ResponseContext {
  model: string;
  instructions?: unknown;
  previous_response_id?: unknown;
}

function responseObject(ctx: ResponseContext, status: string, output: object[], extra: Record<string, unknown>): Record<string, unknown> {
  return {
    id: id('resp'),
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status,
    error: null,
    incomplete_details: null,
    instructions: typeof ctx.instructions === 'string' ? ctx.instructions : null,
    model: ctx.model,
    output,
    parallel_tool_calls: true,
    previous_response_id: typeof ctx.previous_response_id === 'string' ? ctx.previous_response_id : null,
    temperature: null,
    tool_choice: 'auto',
    tools: [],
    top_p: null,
    metadata: {},
    usage: EMPTY_USAGE,
    ...extra,
  };
}

/** An assistant message whose only content part is a refusal: how the API itself says "the model refused". */
export function refusalMessage(text: string): Record<string, unknown> {
  return { type: 'message', id: id('msg'), status: 'completed', role: 'assistant', content: [{ type: 'refusal', refusal: text }] };
}

function textMessage(text: string): Record<string, unknown> {
  return { type: 'message', id: id('msg'), status: 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] };
}

export function blockedResponse(ctx: ResponseContext, bastion: BastionInfo): Record<string, unknown> {
  return responseObject(ctx, 'incomplete', [refusalMessage(REFUSAL)], { incomplete_details: { reason: 'content_filter' }, bastion });
}

export function decoyResponse(ctx: ResponseContext): Record<string, unknown> {
  return responseObject(ctx, 'completed', [textMessage(DECOY)], {});
}

/** `event: <type>` plus the JSON data line, as the API writes each event. */
export function sseEvent(event: Record<string, unknown>): string {
  return `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** The events that build an already-complete message item at `output_index` (refusal or text parts). */
export function messageEvents(message: Record<string, unknown>, outputIndex: number): Record<string, unknown>[] {
  const parts = message.content as Record<string, unknown>[];
  const events: Record<string, unknown>[] = [{ type: 'response.output_item.added', output_index: outputIndex, item: { ...message, status: 'in_progress', content: [] } }];
  parts.forEach((part, contentIndex) => {
    const at = { item_id: message.id, output_index: outputIndex, content_index: contentIndex };
    if (part.type === 'refusal') {
      events.push({ type: 'response.content_part.added', ...at, part: { type: 'refusal', refusal: '' } });
      events.push({ type: 'response.refusal.delta', ...at, delta: part.refusal });
      events.push({ type: 'response.refusal.done', ...at, refusal: part.refusal });
    } else {
      events.push({ type: 'response.content_part.added', ...at, part: { type: 'output_text', text: '', annotations: [] } });
      events.push({ type: 'response.output_text.delta', ...at, delta: part.text, logprobs: [] });
      events.push({ type: 'response.output_text.done', ...at, text: part.text, logprobs: [] });
    }
    events.push({ type: 'response.content_part.done', ...at, part });
  });
  events.push({ type: 'response.output_item.done', output_index: outputIndex, item: message });
  return events;
}

/** A whole synthetic Response as a stream: created, in_progress, its items, then completed or incomplete. */
export function responseStream(response: Record<string, unknown>): string {
  const output = response.output as Record<string, unknown>[];
  const { bastion: _verdict, ...rest } = response;
  const startClean = { ...rest, status: 'in_progress', output: [], incomplete_details: null };
  const events = [
    { type: 'response.created', response: startClean },
    { type: 'response.in_progress', response: startClean },
    ...output.flatMap((m, i) => messageEvents(m, i)),
    { type: response.status === 'incomplete' ? 'response.incomplete' : 'response.completed', response },
  ];
  return events.map((e, sequence_number) => sseEvent({ ...e, sequence_number })).join('');
}
