import { randomBytes } from 'node:crypto';
import type { BastionInfo } from '../chat/verdict-summary.js';

/**
 * Messages Bastion writes itself, in the Messages API's own shapes so the Anthropic SDK parses them: a blocked request
 * is an assistant message with one text block and stop_reason "refusal", plus the `bastion` verdict; a shadow-banned
 * entity gets a plausible decoy ending "end_turn". Streams carry the same message through the API's events.
 */
export const REFUSAL = 'This request was blocked by the security gateway.';
export const CALL_REFUSAL = 'A tool call was blocked by the security gateway.';
const DECOY = "I'm sorry, I can't help with that right now. Please try again later.";

/** Response header naming the verdict when Bastion blocked or changed something: `block; stage=request`. */
export const VERDICT_HEADER = 'x-bastion-verdict';
export const verdictHeader = (bastion: BastionInfo) => `${bastion.action}; stage=${bastion.stage}`;

type Obj = Record<string, unknown>;
const messageId = () => `msg_bst${randomBytes(12).toString('hex')}`;
const EMPTY_USAGE = { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

function message(model: string, text: string, stopReason: string, extra: Obj): Obj {
  return { id: messageId(), type: 'message', role: 'assistant', model, content: [{ type: 'text', text }], stop_reason: stopReason, stop_sequence: null, usage: EMPTY_USAGE, ...extra };
}

export const blockedMessage = (model: string, bastion: BastionInfo) => message(model, REFUSAL, 'refusal', { bastion });
export const decoyMessage = (model: string) => message(model, DECOY, 'end_turn', {});

/** `event: <type>` plus the JSON data line, as the API frames each event. */
export function sseEvent(event: Obj): string {
  return `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** The events of a text block at `index`, already complete. */
export function textBlockEvents(index: number, text: string): Obj[] {
  return [
    { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index, delta: { type: 'text_delta', text } },
    { type: 'content_block_stop', index },
  ];
}

/** A whole synthetic message (text blocks only) as the API streams one. */
export function messageStream(full: Obj): string {
  const { content, stop_reason, stop_sequence, usage, bastion, ...rest } = full;
  const blocks = content as { text: string }[];
  const events: Obj[] = [
    { type: 'message_start', message: { ...rest, content: [], stop_reason: null, stop_sequence: null, usage } },
    ...blocks.flatMap((b, i) => textBlockEvents(i, b.text)),
    { type: 'message_delta', delta: { stop_reason, stop_sequence }, usage: { output_tokens: 0 }, ...(bastion ? { bastion } : {}) },
    { type: 'message_stop' },
  ];
  return events.map(sseEvent).join('');
}
