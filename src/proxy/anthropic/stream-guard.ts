import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { TextGuard, type Released } from '../chat/text-guard.js';
import type { Leak } from '../chat/leak-scanner.js';
import { CALL_REFUSAL, sseEvent, textBlockEvents } from './synthetic.js';
import { toolInputText } from './message-guard.js';
import type { PumpedGuard } from '../upstream/pump.js';

type Obj = Record<string, unknown>;

export interface AnthropicStreamHooks {
  write(text: string): void;
  holdChars: number;
  allowDomains: readonly string[];
  /** Most tool input bytes one stream may hold before it is cut (bounded memory). */
  maxToolBytes: number;
  /** Judges one complete tool_use block: the block to release (possibly redacted), or undefined when blocked. */
  judgeToolUse(block: Obj): Promise<Obj | undefined>;
  /** The text in a blocked call's place: the flow policy's reason when it refused the call, else the plain refusal. */
  refusalText?(): string;
  /** Credentials and links redacted from the text so far. */
  onLeaks(leaks: Leak[]): void;
  /** A block that is neither text nor a tool call (a server-side tool's call or result) as it starts, or a text's citation. */
  noteBlock?(block: Obj): void;
  /** The verdict so far (calls removed, leaks redacted), carried by message_delta; undefined when nothing was touched. */
  verdict(): Obj | undefined;
}

interface Queued {
  message: EventSourceMessage;
  /** The parsed data; undefined when it is not a JSON object. */
  event?: Obj;
}

type OpenBlock = { kind: 'text'; guard: TextGuard } | { kind: 'tool'; start: Obj; input: string } | { kind: 'relay' };

/** The error types Anthropic's own streams end with. */
const ERROR_TYPES: Record<string, string> = { BASTION_ERR_SHUTTING_DOWN: 'overloaded_error' };

/**
 * Point [B] for a streamed Messages API answer. Events are handled strictly in order:
 * - `text` blocks flow through as they arrive; the word still being written is held by TextGuard so a credential is
 *   never partly released, and one found is replaced in place by `[REDACTED:<type>]` (the verdict rides on
 *   message_delta as `bastion`). A run of plain text deltas released as it came goes out as the upstream's own bytes.
 * - `tool_use` blocks are held whole (start, every input_json_delta) until content_block_stop, then judged: an allowed
 *   call goes out as start, one input_json_delta with the complete input, and stop; a blocked one becomes a text block
 *   saying so, and the message ends as Anthropic ends a message that cannot complete: message_delta with stop_reason
 *   "refusal" and the verdict, then an `error` event the SDK raises. No fragment of its input ever reaches the app.
 * - thinking, signature and citation deltas, server-side tool blocks, message_start, ping and error events are relayed
 *   as they came. Event types the guard does not know are dropped: nothing is released unjudged.
 * A stream cut mid-block (or ending without message_stop) ends with an `error` event; held input is never released.
 */
export class AnthropicStreamGuard implements PumpedGuard {
  private readonly queue: Queued[] = [];
  private readonly parser = createParser({ onEvent: (message) => this.queue.push({ message, event: parse(message.data) }) });
  private readonly blocks = new Map<number, OpenBlock>();
  private toolBytes = 0;
  private outputTokens = 0;
  ended = false;

  constructor(private readonly hooks: AnthropicStreamHooks) {}

  async feed(chunk: string): Promise<void> {
    this.parser.feed(chunk);
    while (this.queue.length > 0 && !this.ended) {
      if (!this.relayTextRun()) await this.handle(this.queue.shift()!);
    }
  }

  /** The upstream closed before message_stop: what was judged is out, what is held stays held. */
  finish(): void {
    this.fail({ code: 'BASTION_ERR_STREAM_INTERRUPTED', message: 'The upstream stream ended before the message was complete.' });
  }

  /** Ends the stream with Anthropic's `error` event (upstream failure, shutdown, a bound exceeded). */
  fail(error: { code: string; message: string }): void {
    if (this.ended) return;
    this.emit({ type: 'error', error: { type: ERROR_TYPES[error.code] ?? 'api_error', message: error.message, code: error.code } });
    this.ended = true;
  }

  private async handle({ message, event }: Queued): Promise<void> {
    if (!event) return; // not JSON: nothing the SDK reads, and nothing released unjudged
    const type = String(event.type ?? message.event ?? '');
    switch (type) {
      case 'message_start':
        this.outputTokens = Number(((event.message as Obj | undefined)?.usage as Obj | undefined)?.output_tokens) || 0;
        return this.relay(message);
      case 'ping':
        return this.relay(message);
      case 'content_block_start':
        return this.start(event, message);
      case 'content_block_delta':
        return this.delta(event, message);
      case 'content_block_stop':
        return this.stop(event, message);
      case 'message_delta':
        return this.messageDelta(event, message);
      case 'message_stop':
      case 'error':
        this.relay(message);
        this.ended = true;
        return;
      default:
        return; // an event type Bastion does not know: dropped rather than released unjudged
    }
  }

  private start(event: Obj, message: EventSourceMessage): void {
    const index = Number(event.index);
    const block = (event.content_block ?? {}) as Obj;
    if (block.type === 'tool_use') {
      this.blocks.set(index, { kind: 'tool', start: event, input: '' });
      return;
    }
    if (block.type !== 'text') {
      this.hooks.noteBlock?.(block);
      this.blocks.set(index, { kind: 'relay' });
      return this.relay(message);
    }
    const guard = new TextGuard(this.hooks.holdChars, this.hooks.allowDomains, 'redact');
    this.blocks.set(index, { kind: 'text', guard });
    if (typeof block.text !== 'string' || block.text === '') return this.relay(message);
    this.emit({ ...event, content_block: { ...block, text: '' } });
    this.releaseText(index, guard.push(block.text));
  }

  private delta(event: Obj, message: EventSourceMessage): void {
    const index = Number(event.index);
    const open = this.blocks.get(index);
    const delta = (event.delta ?? {}) as Obj;
    if (!open) return; // a delta for a block never started: not released
    if (open.kind === 'tool') {
      if (delta.type !== 'input_json_delta' || typeof delta.partial_json !== 'string') return;
      open.input += delta.partial_json;
      this.toolBytes += delta.partial_json.length;
      if (this.toolBytes > this.hooks.maxToolBytes) this.fail({ code: 'BASTION_ERR_TOOL_CALL_TOO_LARGE', message: 'A tool call exceeded the size Bastion inspects.' });
      return;
    }
    if (delta.type === 'citations_delta') this.hooks.noteBlock?.({ type: 'text', citations: [delta.citation] });
    if (open.kind === 'text' && delta.type === 'text_delta') {
      if (typeof delta.text === 'string') this.releaseText(index, open.guard.push(delta.text));
      return;
    }
    this.relay(message);
  }

  private async stop(event: Obj, message: EventSourceMessage): Promise<void> {
    const index = Number(event.index);
    const open = this.blocks.get(index);
    this.blocks.delete(index);
    if (open?.kind === 'tool') return this.releaseTool(index, open.start, open.input);
    if (open?.kind === 'text') this.releaseText(index, open.guard.flush());
    if (open) this.relay(message);
  }

  /** A complete tool_use block: judged, then released whole or replaced by a refusal that ends the message. */
  private async releaseTool(index: number, start: Obj, raw: string): Promise<void> {
    const block = (start.content_block ?? {}) as Obj;
    // The input as the deltas built it (a string when it is not JSON: judged and released as written); none: the start's.
    const input = raw === '' ? (block.input ?? {}) : (parse(raw) ?? raw);
    const out = await this.hooks.judgeToolUse({ ...block, input });
    if (out) {
      this.emit({ ...start, content_block: { ...out, input: {} } });
      this.emit({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: toolInputText(out.input) } });
      this.emit({ type: 'content_block_stop', index });
      return;
    }
    for (const e of textBlockEvents(index, this.hooks.refusalText?.() ?? CALL_REFUSAL)) this.emit(e);
    this.emit({ type: 'message_delta', delta: { stop_reason: 'refusal', stop_sequence: null }, usage: { output_tokens: this.outputTokens }, bastion: this.hooks.verdict() });
    this.emit({ type: 'error', error: { type: 'permission_error', message: CALL_REFUSAL, code: 'BASTION_ERR_TOOL_CALL_BLOCKED' }, bastion: this.hooks.verdict() });
    this.ended = true;
  }

  private messageDelta(event: Obj, message: EventSourceMessage): void {
    if ([...this.blocks.values()].some((b) => b.kind === 'tool')) {
      return this.fail({ code: 'BASTION_ERR_STREAM_INTERRUPTED', message: 'The message ended inside a tool call.' });
    }
    for (const [index, open] of this.blocks) if (open.kind === 'text') this.releaseText(index, open.guard.flush());
    this.outputTokens = Number((event.usage as Obj | undefined)?.output_tokens) || this.outputTokens;
    const bastion = this.hooks.verdict();
    if (bastion) this.emit({ ...event, bastion });
    else this.relay(message);
  }

  /**
   * A run of queued text deltas of one open text block is pushed through its guard at once (one scan instead of one
   * per delta). Released as it came: the upstream's own bytes go out; otherwise one delta with what was released.
   */
  private relayTextRun(): boolean {
    const first = this.queue[0];
    const index = textDeltaIndex(first.event);
    const open = index === undefined ? undefined : this.blocks.get(index);
    if (open?.kind !== 'text') return false;
    let n = 1;
    while (n < this.queue.length && textDeltaIndex(this.queue[n].event) === index) n++;
    const run = this.queue.splice(0, n);
    const text = run.map((q) => ((q.event!.delta as Obj).text as string)).join('');
    const clear = !open.guard.holding;
    const r = open.guard.push(text);
    if (clear && 'release' in r && r.release === text && !r.redacted) this.hooks.write(run.map((q) => frame(q.message)).join(''));
    else this.releaseText(index!, r);
    return true;
  }

  private releaseText(index: number, r: Released | { leak: Leak }): void {
    if ('leak' in r) return; // redact mode never ends the stream
    if (r.redacted) this.hooks.onLeaks(r.redacted);
    if (r.release) this.emit({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: r.release } });
  }

  private relay(message: EventSourceMessage): void {
    this.hooks.write(frame(message));
  }

  private emit(event: Obj): void {
    this.hooks.write(sseEvent(event));
  }
}

/** The event as the API framed it: its own event name and data bytes. */
function frame(message: EventSourceMessage): string {
  return message.event ? `event: ${message.event}\ndata: ${message.data}\n\n` : `data: ${message.data}\n\n`;
}

function parse(data: string): Obj | undefined {
  try {
    const value = JSON.parse(data) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Obj) : undefined;
  } catch {
    return undefined;
  }
}

function textDeltaIndex(event: Obj | undefined): number | undefined {
  if (event?.type !== 'content_block_delta') return undefined;
  const delta = event.delta as Obj | undefined;
  return delta?.type === 'text_delta' && typeof delta.text === 'string' ? Number(event.index) : undefined;
}

