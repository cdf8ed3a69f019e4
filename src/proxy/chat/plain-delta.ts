import type { EventSourceMessage } from 'eventsource-parser';

/** A streamed chunk that carries nothing but assistant text for one choice: the common case, hundreds per answer. */
export interface PlainDelta {
  /** The event's data exactly as the upstream sent it (one line of JSON). */
  data: string;
  index: number;
  content: string;
  chunk: Record<string, unknown>;
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
    return { data, index: choice.index as number, content: delta.content, chunk: chunk as Record<string, unknown> };
  }
  return undefined;
}

const once = (data: string, key: string) => data.indexOf(key) === data.lastIndexOf(key);
