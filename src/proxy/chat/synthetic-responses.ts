import { randomBytes } from 'node:crypto';
import type { BastionInfo } from './verdict-summary.js';

/**
 * OpenAI-shaped answers Bastion writes itself: a refusal for a blocked request (HTTP 200, SPEC §1), as JSON or as an
 * SSE stream ending in `data: [DONE]`, and a decoy for shadow-banned entities that must not learn they are banned.
 */
const REFUSAL = 'This request was blocked by the security gateway.';
const DECOY = "I'm sorry, I can't help with that right now. Please try again later.";

const completionId = () => 'chatcmpl-bst' + randomBytes(12).toString('hex');
const now = () => Math.floor(Date.now() / 1000);

export function refusalCompletion(model: string, bastion: BastionInfo): object {
  return {
    id: completionId(),
    object: 'chat.completion',
    created: now(),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: REFUSAL, refusal: REFUSAL }, logprobs: null, finish_reason: 'content_filter' }],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    bastion,
  };
}

export function decoyCompletion(model: string): object {
  return {
    id: completionId(),
    object: 'chat.completion',
    created: now(),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: DECOY, refusal: null }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}

export const sse = (data: unknown) => `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;

function streamOf(model: string, content: string, finish: string, extra: Record<string, unknown>): string {
  const base = { id: completionId(), object: 'chat.completion.chunk', created: now(), model };
  return (
    sse({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }] }) +
    sse({ ...base, choices: [{ index: 0, delta: { content }, logprobs: null, finish_reason: null }] }) +
    sse({ ...base, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: finish }], ...extra }) +
    sse('[DONE]')
  );
}

export const refusalStream = (model: string, bastion: BastionInfo) => streamOf(model, REFUSAL, 'content_filter', { bastion });
export const decoyStream = (model: string) => streamOf(model, DECOY, 'stop', {});
