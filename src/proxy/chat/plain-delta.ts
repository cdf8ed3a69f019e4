import type { EventSourceMessage } from 'eventsource-parser';

/** A streamed chunk that carries nothing but assistant text for one choice: the common case, hundreds per answer. */
export interface PlainDelta {
  /** The event's data exactly as the upstream sent it (one line of JSON). */
  data: string;
  index: number;
  content: string;
  /** The chunk's fields other than `choices` (id, model, created, …): the template of a re-serialised chunk. */
  rest: Record<string, unknown>;
}

const CHOICE_KEYS = new Set(['index', 'delta', 'finish_reason', 'logprobs']);

/**
 * Classifies one SSE event. Plain means: one line of JSON, exactly one choice, no finish reason, no logprobs, and a
 * delta holding only a `content` string: no role, refusal, tool-call or function-call fragment. Only such a chunk may
 * be relayed as the upstream's own bytes once its text is judged (StreamGuard); anything else takes the general path.
 */
export function plainDelta(event: EventSourceMessage): PlainDelta | undefined {
  const { data } = event;
  if (event.event !== undefined || data.charCodeAt(0) !== 0x7b /* { */ || data.includes('\n') || data.includes('\r')) return undefined;
  let chunk: { choices?: unknown };
  try {
    chunk = JSON.parse(data) as { choices?: unknown };
  } catch {
    return undefined;
  }
  const choices = chunk.choices;
  if (!Array.isArray(choices) || choices.length !== 1) return undefined;
  const choice = choices[0] as Record<string, unknown> | null;
  if (typeof choice !== 'object' || choice === null || !Number.isSafeInteger(choice.index) || (choice.index as number) < 0) return undefined;
  for (const key in choice) if (!CHOICE_KEYS.has(key)) return undefined;
  if (choice.finish_reason != null || choice.logprobs != null) return undefined;
  const delta = choice.delta as Record<string, unknown> | null;
  if (typeof delta !== 'object' || delta === null || typeof delta.content !== 'string') return undefined;
  for (const key in delta) if (key !== 'content') return undefined;
  // Relayed as bytes, the chunk must mean to every client what it meant to JSON.parse (the last of duplicate keys wins
  // here, the first in some parsers): a chunk naming a key twice is re-serialised instead.
  if (once(data, '"choices"') && once(data, '"delta"') && once(data, '"content"')) {
    const { choices: _, ...rest } = chunk as Record<string, unknown>;
    return { data, index: choice.index as number, content: delta.content, rest };
  }
  return undefined;
}

function once(data: string, key: string): boolean {
  const first = data.indexOf(key);
  return first >= 0 && data.indexOf(key, first + 1) < 0;
}

/**
 * Reads the plain chunks of one stream. A provider writes every text chunk of a stream from one template: the same
 * bytes before the content string and after it, only the text differs. Once a chunk has passed the full check
 * (`plainDelta`), a later chunk made of exactly its bytes before and after the content string, with a valid JSON
 * string body in between, has the same structure and the same other fields, so only that string is parsed (one small
 * JSON.parse instead of the whole chunk: ~200 such chunks per answer). Anything else takes the full check again.
 */
export class PlainDeltaReader {
  private template?: { before: string; after: string; index: number; rest: Record<string, unknown> };

  read(event: EventSourceMessage): PlainDelta | undefined {
    const t = this.template;
    const { data } = event;
    if (t && event.event === undefined && data.length >= t.before.length + t.after.length && data.startsWith(t.before) && data.endsWith(t.after)) {
      const content = stringBody(data.slice(t.before.length, data.length - t.after.length));
      if (content !== undefined) return { data, index: t.index, content, rest: t.rest };
    }
    const plain = plainDelta(event);
    if (plain) this.template = templateOf(plain);
    return plain;
  }
}

/** The text of a JSON string literal's body (the part between its quotes), or undefined if it is not one. */
function stringBody(body: string): string | undefined {
  // JSON.parse rejects an unescaped quote or control character inside, so `body` cannot close the string early.
  try {
    const value: unknown = JSON.parse(`"${body}"`);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The bytes around the content string of a chunk that passed `plainDelta` (so `"content"` occurs once: as the
 * delta's key, since a quote inside a string is always escaped). Undefined when the string found there does not
 * decode to the parsed content (then no template: every chunk takes the full check).
 */
function templateOf(plain: PlainDelta): PlainDeltaReader['template'] {
  const { data } = plain;
  let i = data.indexOf('"content"') + '"content"'.length;
  while (isJsonSpace(data.charCodeAt(i))) i++;
  if (data[i++] !== ':') return undefined;
  while (isJsonSpace(data.charCodeAt(i))) i++;
  if (data[i] !== '"') return undefined;
  const start = i + 1;
  let end = start;
  while (end < data.length && data[end] !== '"') end += data[end] === '\\' ? 2 : 1;
  if (end >= data.length || stringBody(data.slice(start, end)) !== plain.content) return undefined;
  return { before: data.slice(0, start), after: data.slice(end), index: plain.index, rest: plain.rest };
}

function isJsonSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}
