import { randomBytes } from 'node:crypto';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { TextGuard } from '../chat/text-guard.js';
import { redactLeaks, type Leak } from '../chat/leak-scanner.js';
import type { BastionInfo } from '../chat/verdict-summary.js';

/**
 * The legacy completions API (`text_completion` objects): Bastion's own answers, and point [B] on `choices[].text`:
 * credentials and data-carrying links are redacted in place, non-streamed and streamed (the chat streams' word-holding
 * TextGuard, redact mode). There are no tool calls in this API.
 */
const REFUSAL = 'This request was blocked by the security gateway.';
const DECOY = "I'm sorry, I can't help with that right now. Please try again later.";
const id = () => 'cmpl-bst' + randomBytes(12).toString('hex');
const now = () => Math.floor(Date.now() / 1000);
const EMPTY_USAGE = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };

function textCompletion(model: string, text: string, finish: string, extra: Record<string, unknown>): Record<string, unknown> {
  return { id: id(), object: 'text_completion', created: now(), model, choices: [{ text, index: 0, logprobs: null, finish_reason: finish }], usage: EMPTY_USAGE, ...extra };
}

export const blockedCompletion = (model: string, bastion: BastionInfo) => textCompletion(model, REFUSAL, 'content_filter', { bastion });
export const decoyCompletion = (model: string) => textCompletion(model, DECOY, 'stop', {});

/** The same object as an SSE stream ending in `data: [DONE]`. */
export function completionStream(completion: Record<string, unknown>): string {
  return `data: ${JSON.stringify(completion)}\n\ndata: [DONE]\n\n`;
}

interface Choice {
  text?: unknown;
  index?: unknown;
  finish_reason?: unknown;
}

function verdict(requestId: string, leaks: Leak[]): BastionInfo {
  const reasons = [...new Map(leaks.map((l) => [l.type, { layer: l.layer, type: l.type, score: 1 }])).values()].slice(0, 20);
  return { request_id: requestId, risk_level: 'HIGH', action: 'redact', reasons, stage: 'output' };
}

/** Non-streamed: redacts each choice's text in place; adds the verdict when something was redacted. */
export function guardTextCompletion(completion: Record<string, unknown>, requestId: string, allowDomains: readonly string[]): Record<string, unknown> {
  const leaks: Leak[] = [];
  for (const choice of (completion.choices as Choice[]).filter((c) => typeof c === 'object' && c !== null)) {
    if (typeof choice.text !== 'string' || !choice.text) continue;
    const r = redactLeaks(choice.text, allowDomains);
    if (r.leaks.length === 0) continue;
    choice.text = r.text;
    leaks.push(...r.leaks);
  }
  if (leaks.length > 0) completion.bastion = verdict(requestId, leaks);
  return completion;
}

/** Streamed: each chunk's choice text goes through a TextGuard per choice index; held text is flushed at finish. */
export class TextCompletionStreamGuard {
  private readonly parser = createParser({ onEvent: (e) => this.queue.push(e) });
  private readonly queue: EventSourceMessage[] = [];
  private readonly guards = new Map<number, TextGuard>();
  private readonly leaks: Leak[] = [];
  private template: Record<string, unknown> = {};
  ended = false;

  constructor(
    private readonly write: (text: string) => void,
    private readonly requestId: string,
    private readonly holdChars: number,
    private readonly allowDomains: readonly string[],
  ) {}

  feed(chunk: string): void {
    this.parser.feed(chunk);
    while (this.queue.length > 0 && !this.ended) this.handle(this.queue.shift()!);
  }

  /** Upstream ended (with or without [DONE]), or an interruption: flush what passes the scan, then [DONE]. */
  finish(error?: { code: string; message: string }): void {
    if (this.ended) return;
    for (const [index] of this.guards) this.flush(index, null);
    if (error) this.write(`data: ${JSON.stringify({ error })}\n\n`);
    this.write('data: [DONE]\n\n');
    this.ended = true;
  }

  private handle(event: EventSourceMessage): void {
    if (event.data === '[DONE]') return this.finish();
    let chunk: Record<string, unknown>;
    try {
      chunk = JSON.parse(event.data) as Record<string, unknown>;
    } catch {
      return; // not JSON: nothing the SDK reads, nothing released unscanned
    }
    const { choices, ...rest } = chunk;
    this.template = rest;
    if (!Array.isArray(choices)) return this.write(`data: ${JSON.stringify(chunk)}\n\n`);
    for (const c of choices as Choice[]) {
      const index = typeof c?.index === 'number' ? c.index : 0;
      const guard = this.guard(index);
      const r = typeof c?.text === 'string' && c.text ? guard.push(c.text) : { release: '' };
      const release = 'release' in r ? r.release : '';
      if ('redacted' in r && r.redacted) this.leaks.push(...r.redacted);
      if (typeof c?.finish_reason === 'string') {
        this.emit({ ...c, index, text: release, finish_reason: null });
        this.flush(index, c.finish_reason);
      } else if (release) {
        this.emit({ ...c, index, text: release });
      }
    }
  }

  /** What the stream's guard did so far (leaks redacted), for the exchange's count; undefined when untouched. */
  verdict(): BastionInfo | undefined {
    return this.leaks.length > 0 ? verdict(this.requestId, this.leaks) : undefined;
  }

  private flush(index: number, finish: string | null): void {
    const r = this.guard(index).flush();
    this.guards.delete(index);
    if ('redacted' in r && r.redacted) this.leaks.push(...r.redacted);
    const text = 'release' in r ? r.release : '';
    if (!text && finish === null) return;
    const extra = finish !== null && this.leaks.length > 0 ? { bastion: verdict(this.requestId, this.leaks) } : {};
    this.emit({ text, index, logprobs: null, finish_reason: finish }, extra);
  }

  private emit(choice: Record<string, unknown>, extra: Record<string, unknown> = {}): void {
    this.write(`data: ${JSON.stringify({ ...this.template, choices: [choice], ...extra })}\n\n`);
  }

  private guard(index: number): TextGuard {
    let g = this.guards.get(index);
    if (!g) this.guards.set(index, (g = new TextGuard(this.holdChars, this.allowDomains, 'redact')));
    return g;
  }
}
