import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { TextGuard } from '../chat/text-guard.js';
import { redactLeaks } from '../chat/leak-scanner.js';
import { callText, isClientCall, type OutputReport } from './output-guard.js';
import { messageEvents, sseEvent } from './synthetic.js';
import type { PumpedGuard } from '../upstream/pump.js';

type Obj = Record<string, unknown>;

export interface ResponsesStreamHooks {
  write(text: string): void;
  /** Judges one complete executable call: returns the item to release (the call, redacted, or a refusal message). */
  guardCall(item: Obj): Promise<Obj>;
  /** Guards a lifecycle event's output array (items this stream released win). */
  guardOutput(output: unknown[], known: Map<number, Obj>): Promise<unknown[]>;
  /** Adds the verdict to the final Response object. */
  finalise(response: Obj): void | Promise<void>;
  report: OutputReport;
  /** An item that is not a call the app runs (a hosted tool's item, a message citing sources), as it is done. */
  noteItem?(item: Obj): void;
  holdChars: number;
  allowDomains: readonly string[];
  maxToolBytes: number;
}

const ARG_DELTAS: Record<string, string> = {
  'response.function_call_arguments.delta': 'arguments',
  'response.custom_tool_call_input.delta': 'input',
  'response.mcp_call_arguments.delta': 'arguments',
};
const ARG_DONE: Record<string, string> = {
  'response.function_call_arguments.done': 'arguments',
  'response.custom_tool_call_input.done': 'input',
  'response.mcp_call_arguments.done': 'arguments',
};
const LIFECYCLE = new Set(['response.created', 'response.queued', 'response.in_progress']);
const TERMINAL = new Set(['response.completed', 'response.incomplete', 'response.failed']);

interface HeldCall {
  item: Obj;
  arguments: string;
}

interface HeldText {
  guard: TextGuard;
  released: string;
  itemId: unknown;
  /** Flushed: everything held was scanned and released (output_text.done, or the part/item ended without it). */
  flushed: boolean;
}

/**
 * Point [B] for a streamed Response (semantic SSE events). Executable calls (see output-guard.ts) are held from
 * `response.output_item.added` to their `response.output_item.done`, judged whole, then released as added → one
 * arguments delta → arguments done → item done; a blocked call becomes a refusal message at the same output index.
 * output_text deltas go through the chat streams' word-holding TextGuard in redact mode: a credential or data-carrying
 * link is replaced in place by `[REDACTED:<type>]` and the rest of the text flows on; `.done` events, content parts,
 * items and the final Response carry the released text. Events are renumbered (sequence_number) as they are written.
 */
export class ResponsesStreamGuard implements PumpedGuard {
  private readonly parser = createParser({ onEvent: (e) => this.queue.push(e) });
  private readonly queue: EventSourceMessage[] = [];
  private readonly held = new Map<number, HeldCall>();
  private readonly text = new Map<string, HeldText>();
  private readonly released = new Map<number, Obj>();
  private toolBytes = 0;
  private seq = 0;
  ended = false;

  constructor(private readonly hooks: ResponsesStreamHooks) {}

  async feed(chunk: string): Promise<void> {
    this.parser.feed(chunk);
    while (this.queue.length > 0 && !this.ended) await this.handle(this.queue.shift()!);
  }

  /**
   * Upstream closed without a terminal event: held text is scanned and released, a call still held is dropped (its
   * arguments may be cut short: never handed to the app as if complete), then the API's error event ends the stream.
   */
  async finish(): Promise<void> {
    if (this.ended) return;
    this.held.clear();
    await this.releasePending();
    this.fail({ code: 'BASTION_ERR_STREAM_INTERRUPTED', message: 'The upstream stream ended before the response was complete.' });
  }

  /** Ends the stream with the Responses API's own `error` event (shutdown, upstream failure). */
  fail(error: { code: string; message: string }): void {
    if (this.ended) return;
    this.emit({ type: 'error', code: error.code, message: error.message, param: null });
    this.ended = true;
  }

  private emit(event: Obj): void {
    this.hooks.write(sseEvent({ ...event, sequence_number: this.seq++ }));
  }

  private async handle(message: EventSourceMessage): Promise<void> {
    let event: Obj;
    try {
      event = JSON.parse(message.data) as Obj;
    } catch {
      return; // not JSON (a comment, `[DONE]`): nothing the SDK reads, and nothing released unjudged
    }
    if (typeof event !== 'object' || event === null) return;
    const type = String(event.type ?? message.event ?? '');
    const index = typeof event.output_index === 'number' ? event.output_index : -1;

    if (type === 'response.output_item.added' && isClientCall(event.item)) {
      this.held.set(index, { item: event.item as Obj, arguments: '' });
      return;
    }
    if (type in ARG_DELTAS && this.held.has(index)) return this.accumulate(index, event.delta);
    if (type in ARG_DONE && this.held.has(index)) {
      const done = event[ARG_DONE[type]];
      if (typeof done === 'string') this.held.get(index)!.arguments = done;
      return;
    }
    if (type === 'response.output_item.done' && (this.held.has(index) || isClientCall(event.item))) {
      return this.releaseCall(index, isClientCall(event.item) ? event.item : undefined);
    }
    if (this.held.has(index)) return; // any other event about a held call waits for its judgement
    if (type === 'response.output_text.delta') return this.textDelta(event, index);
    if (type === 'response.output_text.done') return this.textDone(event, index);
    if (type === 'response.content_part.added' || type === 'response.content_part.done') return this.contentPart(event, index);
    if (type === 'response.output_item.done') return this.itemDone(event, index);
    if (LIFECYCLE.has(type) || TERMINAL.has(type)) return this.lifecycle(event, type);
    this.emit(event);
    if (type === 'error') this.ended = true;
  }

  private accumulate(index: number, delta: unknown): void {
    if (typeof delta !== 'string') return;
    this.held.get(index)!.arguments += delta;
    this.toolBytes += delta.length;
    if (this.toolBytes > this.hooks.maxToolBytes) this.fail({ code: 'BASTION_ERR_TOOL_CALL_TOO_LARGE', message: 'A tool call exceeded the size Bastion inspects.' });
  }

  private async releaseCall(index: number, doneItem?: Obj): Promise<void> {
    const held = this.held.get(index);
    this.held.delete(index);
    // The done item is authoritative; without one, the call as accumulated from its deltas.
    const field = String((doneItem ?? held?.item)?.type) === 'custom_tool_call' ? 'input' : 'arguments';
    const item: Obj = doneItem ?? { ...held!.item, ...(held!.item.type === 'function_call' || field === 'input' ? { [field]: held!.arguments } : {}), status: 'completed' };
    const out = await this.hooks.guardCall(item);
    this.released.set(index, out);
    if (out.type === 'message') {
      for (const e of messageEvents(out, index)) this.emit(e);
      return;
    }
    const added = held?.item ?? out;
    this.emit({ type: 'response.output_item.added', output_index: index, item: { ...added, ...(out.type === 'function_call' ? { arguments: '' } : {}), ...(out.type === 'custom_tool_call' ? { input: '' } : {}) } });
    const at = { item_id: out.id, output_index: index };
    if (out.type === 'function_call') {
      this.emit({ type: 'response.function_call_arguments.delta', ...at, delta: callText(out) });
      this.emit({ type: 'response.function_call_arguments.done', ...at, name: out.name, arguments: callText(out) });
    } else if (out.type === 'custom_tool_call') {
      this.emit({ type: 'response.custom_tool_call_input.delta', ...at, delta: callText(out) });
      this.emit({ type: 'response.custom_tool_call_input.done', ...at, input: callText(out) });
    }
    this.emit({ type: 'response.output_item.done', output_index: index, item: out });
  }

  private textOf(event: Obj, index: number): HeldText {
    const key = `${index}:${String(event.content_index)}`;
    let t = this.text.get(key);
    if (!t) this.text.set(key, (t = { guard: new TextGuard(this.hooks.holdChars, this.hooks.allowDomains, 'redact'), released: '', itemId: event.item_id, flushed: false }));
    return t;
  }

  private releaseText(event: Obj, t: HeldText, r: ReturnType<TextGuard['push']>): void {
    if ('leak' in r) return; // redact mode never ends the stream
    if (r.redacted) this.hooks.report.leaks.push(...r.redacted);
    if (!r.release) return;
    t.released += r.release;
    this.emit({ type: 'response.output_text.delta', item_id: t.itemId, output_index: event.output_index, content_index: event.content_index, delta: r.release, logprobs: [] });
  }

  private textDelta(event: Obj, index: number): void {
    if (typeof event.delta !== 'string') return;
    const t = this.textOf(event, index);
    this.releaseText(event, t, t.guard.push(event.delta));
  }

  private textDone(event: Obj, index: number): void {
    const t = this.textOf(event, index);
    this.flushText(event, t);
    this.emit({ ...event, text: t.released, logprobs: [] });
  }

  /** Releases what a part still holds (once): a part or item may end without its output_text.done. */
  private flushText(event: Obj, t: HeldText): void {
    if (t.flushed) return;
    t.flushed = true;
    this.releaseText(event, t, t.guard.flush());
  }

  /** The released text of a part, flushed first; undefined when no delta of it was seen. */
  private releasedText(index: number, contentIndex: number): string | undefined {
    const t = this.text.get(`${index}:${contentIndex}`);
    if (!t) return undefined;
    this.flushText({ output_index: index, content_index: contentIndex }, t);
    return t.released;
  }

  private contentPart(event: Obj, index: number): void {
    const part = event.part as Obj | undefined;
    if (part?.type === 'output_text' && typeof part.text === 'string') {
      const released = this.releasedText(index, Number(event.content_index));
      event = { ...event, part: { ...part, text: released ?? this.redact(part.text) } };
    }
    this.emit(event);
  }

  private itemDone(event: Obj, index: number): void {
    let item = event.item as Obj | undefined;
    if (item) this.hooks.noteItem?.(item);
    if (item?.type === 'message' && Array.isArray(item.content)) {
      const content = item.content.map((p: Obj, ci: number) => {
        if (p?.type !== 'output_text' || typeof p.text !== 'string') return p;
        const released = this.releasedText(index, ci);
        return { ...p, text: released ?? this.redact(p.text) };
      });
      item = { ...item, content };
      event = { ...event, item };
    }
    if (item) this.released.set(index, item);
    this.emit(event);
  }

  private redact(text: string): string {
    const r = redactLeaks(text, this.hooks.allowDomains);
    this.hooks.report.leaks.push(...r.leaks);
    return r.text;
  }

  /** Calls still held when the Response ends are judged and released; open texts are flushed. */
  private async releasePending(): Promise<void> {
    for (const index of [...this.held.keys()].sort((a, b) => a - b)) await this.releaseCall(index);
    for (const [key, t] of this.text) {
      const [index, contentIndex] = key.split(':');
      this.flushText({ output_index: Number(index), content_index: Number(contentIndex) }, t);
    }
  }

  private async lifecycle(event: Obj, type: string): Promise<void> {
    const terminal = TERMINAL.has(type);
    if (terminal) await this.releasePending();
    const response = event.response as Obj | undefined;
    if (response && typeof response === 'object' && Array.isArray(response.output)) {
      const guarded: Obj = { ...response, output: await this.hooks.guardOutput(response.output, this.released) };
      if (typeof guarded.output_text === 'string') delete guarded.output_text;
      if (terminal) await this.hooks.finalise(guarded);
      const finalType = terminal && guarded.status === 'incomplete' && type === 'response.completed' ? 'response.incomplete' : type;
      this.emit({ ...event, type: finalType, response: guarded });
    } else {
      this.emit(event);
    }
    if (terminal) this.ended = true;
  }
}
