import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { PlainDeltaReader, type PlainDelta } from './plain-delta.js';
import { sse } from './synthetic-responses.js';
import { TextGuard } from './text-guard.js';
import type { Leak } from './leak-scanner.js';

interface ToolCallDelta {
  index: number;
  id?: string;
  type?: string;
  function?: { name?: string; arguments?: string };
}

interface ChunkChoice {
  index: number;
  delta?: { role?: string; content?: string | null; tool_calls?: ToolCallDelta[]; [k: string]: unknown };
  finish_reason?: string | null;
  [k: string]: unknown;
}

interface Chunk {
  choices?: ChunkChoice[];
  [k: string]: unknown;
}

export interface AccumulatedCall {
  id?: string;
  type: string;
  name: string;
  arguments: string;
}

export interface StreamGuardHooks {
  write(text: string): void;
  /**
   * Inspects the complete tool calls of one choice; returns, per call, whether it may be released, and the words the
   * app reads where a withheld call would have been (the flow policy's reason), when there are any.
   */
  judgeToolCalls(calls: AccumulatedCall[]): Promise<{ allowed: boolean[]; bastion?: Record<string, unknown>; refusal?: string }>;
  /** Text leak found: the stream ends here with a content_filter chunk. */
  onLeak(leak: Leak): Record<string, unknown>;
  holdChars: number;
  /** The tenant's allow-list: links to these hosts are never an exfiltration leak. */
  allowDomains?: readonly string[];
  /** Most tool-call argument bytes accumulated per stream before the stream is cut (bounded memory). */
  maxToolBytes: number;
  /** false: every event takes the general path, one scan per chunk (the reference the fast path is tested against). */
  fastPath?: boolean;
}

// Until the first text is out, a large read is parsed this much at a time (see feed).
const FIRST_PIECE_CHARS = 2048;

/**
 * Point [B] for `stream: true`. Text deltas pass through as they arrive (a risky tail is held by TextGuard); tool-call
 * deltas are accumulated per choice and index and released as whole calls only after inspection, before the choice's
 * finish chunk. Events are handled strictly in order.
 */
export class StreamGuard {
  private readonly parser = createParser({ onEvent: (e) => this.queue.push(e) });
  private readonly queue: EventSourceMessage[] = [];
  private readonly plain = new PlainDeltaReader();
  private readonly text = new Map<number, TextGuard>();
  private readonly calls = new Map<number, Map<number, AccumulatedCall>>();
  private toolBytes = 0;
  private template: Record<string, unknown> = {};
  ended = false;
  private textReleased = false;

  constructor(private readonly hooks: StreamGuardHooks) {}

  async feed(chunk: string): Promise<void> {
    // Until the first text has gone out, a large read is parsed a piece at a time: the first event does not wait for
    // the parsing of everything that arrived with it.
    if (!this.textReleased && chunk.length > FIRST_PIECE_CHARS) {
      await this.feedParsed(chunk.slice(0, FIRST_PIECE_CHARS));
      if (!this.ended) await this.feed(chunk.slice(FIRST_PIECE_CHARS));
      return;
    }
    await this.feedParsed(chunk);
  }

  private async feedParsed(chunk: string): Promise<void> {
    this.parser.feed(chunk);
    while (this.queue.length > 0 && !this.ended) {
      const before = this.textReleased;
      if (this.hooks.fastPath === false || !this.relayPlainRun()) await this.handle(this.queue.shift()!);
      // Node sends a response's writes at the end of the tick: the first text leaves before the rest is judged.
      else if (!before && this.textReleased && this.queue.length > 0) await new Promise((r) => setImmediate(r));
    }
  }

  /**
   * The fast path (issue 17): the plain text chunks at the head of the queue (one choice, text only: `plainDelta`) are
   * judged together, with one scan of the text guard's window instead of one per chunk. When the whole run's text is
   * released as it came (nothing held before or after, no leak) the chunks go out as the upstream's own bytes, with no
   * re-serialising; otherwise the released text goes out as one chunk, as the general path would send it. Nothing is
   * written before its text was scanned. Returns false when the next event is not plain.
   */
  private relayPlainRun(): boolean {
    const run: PlainDelta[] = [];
    // Until some text has gone out, a run is one event: the first token is written as soon as it is judged, not after
    // every event that arrived with it (a burst can bring hundreds in one read).
    const most = this.textReleased ? this.queue.length : 1;
    while (run.length < most) {
      const next = this.plain.read(this.queue[run.length]);
      if (!next || (run.length > 0 && next.index !== run[0].index)) break;
      run.push(next);
    }
    if (run.length === 0) return false;
    this.queue.splice(0, run.length);
    const { index } = run[0];
    const text = run.map((p) => p.content).join('');
    const guard = this.guard(index);
    const clear = !guard.holding;
    const r = guard.push(text);
    if ('leak' in r) {
      this.leak(r.leak);
      return true;
    }
    this.template = run[run.length - 1].rest;
    if (clear && r.release === text) this.hooks.write(run.map((p) => `data: ${p.data}\n\n`).join(''));
    else if (r.release) this.writeChoice({ index, delta: { content: r.release }, finish_reason: null });
    if (r.release) this.textReleased = true;
    return true;
  }

  /** Upstream closed without [DONE]: release what passes inspection and close cleanly. */
  async finish(): Promise<void> {
    if (this.ended) return;
    await this.handle({ data: '[DONE]', event: undefined, id: undefined });
  }

  /** Ends the stream early with an error event and `[DONE]` (shutdown): the client sees a proper end, not a cut. */
  interrupt(error: Record<string, unknown>): void {
    if (this.ended) return;
    this.hooks.write(sse(error));
    this.end();
  }

  private async handle(event: EventSourceMessage): Promise<void> {
    if (event.data === '[DONE]') {
      for (const index of [...this.calls.keys()]) await this.releaseCalls(index, null);
      for (const [index, guard] of this.text) if (!this.emitText(index, guard.flush())) return;
      this.end();
      return;
    }
    let chunk: Chunk;
    try {
      chunk = JSON.parse(event.data) as Chunk;
    } catch {
      this.hooks.write(sse(event.data)); // not JSON (a provider comment or error): relay untouched
      return;
    }
    const { choices, ...rest } = chunk;
    this.template = rest;
    if (!Array.isArray(choices) || choices.length === 0) {
      this.hooks.write(sse(chunk));
      return;
    }
    for (const choice of choices) {
      if (!(await this.handleChoice(choice))) return;
    }
  }

  /** Returns false when the stream was ended. */
  private async handleChoice(choice: ChunkChoice): Promise<boolean> {
    const { delta = {}, finish_reason: finish, ...choiceRest } = choice;
    const { tool_calls: toolDeltas, content, ...deltaRest } = delta;
    // Legacy function_call deltas are not inspected as tool calls (requests using them are refused): never release one.
    if (deltaRest.function_call !== undefined) return this.leak({ type: 'uninspectable_function_call', layer: 'decision' });
    if (Array.isArray(toolDeltas)) {
      if (!this.accumulate(choice.index, toolDeltas)) return false;
    }
    let released = '';
    if (typeof content === 'string' && content) {
      const r = this.guard(choice.index).push(content);
      if ('leak' in r) return this.leak(r.leak);
      released = r.release;
    }
    if (finish) {
      const r = this.guard(choice.index).flush();
      if ('leak' in r) return this.leak(r.leak);
      released += r.release;
    }
    const hasOther = Object.keys(deltaRest).length > 0;
    if (released || hasOther || (typeof content === 'string' && !toolDeltas && !finish && content === '')) {
      const d = released ? { ...deltaRest, content: released } : deltaRest;
      this.writeChoice({ ...choiceRest, index: choice.index, delta: d, finish_reason: null });
    }
    if (finish) await this.releaseCalls(choice.index, finish, choiceRest);
    return !this.ended;
  }

  private accumulate(choice: number, deltas: ToolCallDelta[]): boolean {
    const byIndex = this.calls.get(choice) ?? new Map<number, AccumulatedCall>();
    this.calls.set(choice, byIndex);
    for (const d of deltas) {
      const call = byIndex.get(d.index) ?? { type: 'function', name: '', arguments: '' };
      if (d.id) call.id = d.id;
      if (d.type) call.type = d.type;
      if (d.function?.name) call.name += d.function.name;
      if (d.function?.arguments !== undefined) {
        const piece = typeof d.function.arguments === 'string' ? d.function.arguments : JSON.stringify(d.function.arguments);
        call.arguments += piece;
        this.toolBytes += piece.length;
      }
      byIndex.set(d.index, call);
    }
    if (this.toolBytes > this.hooks.maxToolBytes) {
      this.leak({ type: 'tool_call_too_large', layer: 'secrets' });
      return false;
    }
    return true;
  }

  private async releaseCalls(choice: number, finish: string | null, choiceRest: Record<string, unknown> = {}): Promise<void> {
    const byIndex = this.calls.get(choice);
    this.calls.delete(choice);
    const calls = byIndex ? [...byIndex.entries()].sort((a, b) => a[0] - b[0]).map(([, c]) => c) : [];
    let blocked = false;
    let bastion: Record<string, unknown> | undefined;
    let refusal: string | undefined;
    if (calls.length > 0) {
      const judged = await this.hooks.judgeToolCalls(calls);
      bastion = judged.bastion;
      refusal = judged.refusal;
      let out = 0;
      calls.forEach((call, i) => {
        if (!judged.allowed[i]) {
          blocked = true;
          return;
        }
        const tool_calls = [{ index: out++, id: call.id, type: call.type, function: { name: call.name, arguments: call.arguments } }];
        this.writeChoice({ index: choice, delta: { tool_calls }, finish_reason: null });
      });
    }
    // As in a non-streamed answer, the refusal reads as the assistant's text, just before the finish chunk.
    if (blocked && refusal) this.writeChoice({ index: choice, delta: { content: refusal }, finish_reason: null });
    if (finish !== null || blocked) {
      this.writeChoice({ ...choiceRest, index: choice, delta: {}, finish_reason: blocked ? 'content_filter' : finish }, blocked ? { bastion } : {});
    }
  }

  private guard(index: number): TextGuard {
    let g = this.text.get(index);
    if (!g) this.text.set(index, (g = new TextGuard(this.hooks.holdChars, this.hooks.allowDomains)));
    return g;
  }

  private emitText(index: number, r: { release: string } | { leak: Leak }): boolean {
    if ('leak' in r) return this.leak(r.leak);
    if (r.release) this.writeChoice({ index, delta: { content: r.release }, finish_reason: null });
    return true;
  }

  private leak(leak: Leak): false {
    const bastion = this.hooks.onLeak(leak);
    this.writeChoice({ index: 0, delta: {}, finish_reason: 'content_filter' }, { bastion });
    this.end();
    return false;
  }

  private writeChoice(choice: Record<string, unknown>, extra: Record<string, unknown> = {}): void {
    this.hooks.write(sse({ ...this.template, choices: [choice], ...extra }));
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    this.hooks.write(sse('[DONE]'));
  }
}
