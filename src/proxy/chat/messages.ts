import type { Kind, Role } from '../../inspect/types.js';
import { readPart, writePart, type ContentPart, type PartReading } from './content-parts.js';

/** Where an inspected text came from in a chat-completions request, so a redaction can be written back. */
export interface TextRef {
  message: number;
  /** Index into a content-part array, or -1 for string content. */
  part: number;
  /** Index into assistant tool_calls, or -1. */
  toolCall: number;
  kind: Kind;
  /** Provenance: the app's own instructions (system/developer), the end user, a tool, or the model. */
  role: Role;
  content: string;
  /** For content parts: how the text was read (a text field, or a decoded file). */
  reading?: Exclude<PartReading, { uninspectable: string }>;
}

export interface ChatMessage {
  role?: string;
  content?: string | ContentPart[] | null;
  tool_calls?: { function?: { name?: string; arguments?: string } }[];
  [field: string]: unknown;
}

// SPEC §1 [A]: what the client sends. system/developer/user text is a prompt; role=tool content is a tool result
// (indirect injection, secret exfiltration); earlier assistant tool_calls arguments are tool calls; assistant text is output.
const KIND_BY_ROLE: Record<string, Kind> = { system: 'prompt', developer: 'prompt', user: 'prompt', tool: 'tool_result', function: 'tool_result', assistant: 'output' };
// Provenance: system and developer messages are the app's own configuration; any unknown role is untrusted user text.
const PROVENANCE: Record<string, Role> = { system: 'system', developer: 'system', user: 'user', tool: 'tool', function: 'tool', assistant: 'assistant' };

export interface Extracted {
  refs: TextRef[];
  /** Content parts that cannot be read as text (images, audio, binary or id-only files, unknown types), by type. */
  uninspected: Record<string, number>;
  uninspectedCount: number;
}

export function extractTexts(messages: ChatMessage[]): Extracted {
  const refs: TextRef[] = [];
  const uninspected: Record<string, number> = {};
  let uninspectedCount = 0;
  messages.forEach((m, message) => {
    const kind = KIND_BY_ROLE[m.role ?? ''] ?? 'prompt';
    const role = PROVENANCE[m.role ?? ''] ?? 'user';
    if (typeof m.content === 'string' && m.content) refs.push({ message, part: -1, toolCall: -1, kind, role, content: m.content });
    if (Array.isArray(m.content)) {
      m.content.forEach((p, part) => {
        const reading = readPart(p);
        if ('uninspectable' in reading) {
          uninspected[reading.uninspectable] = (uninspected[reading.uninspectable] ?? 0) + 1;
          uninspectedCount++;
        } else if (reading.text) {
          refs.push({ message, part, toolCall: -1, kind, role, content: reading.text, reading });
        }
      });
    }
    m.tool_calls?.forEach((call, toolCall) => {
      const args = call?.function?.arguments;
      if (typeof args === 'string' && args) refs.push({ message, part: -1, toolCall, kind: 'tool_call', role: 'assistant', content: args });
    });
  });
  return { refs, uninspected, uninspectedCount };
}

/** Writes redacted texts back into a copy of the messages (the original request object is not mutated). */
export function applyRedactions(messages: ChatMessage[], refs: TextRef[], redacted: (string | undefined)[]): ChatMessage[] {
  const out: ChatMessage[] = structuredClone(messages);
  refs.forEach((ref, i) => {
    const text = redacted[i];
    if (text === undefined || text === ref.content) return;
    const m = out[ref.message];
    if (ref.toolCall >= 0) m.tool_calls![ref.toolCall].function!.arguments = text;
    else if (ref.part >= 0 && ref.reading) writePart((m.content as ContentPart[])[ref.part], ref.reading, text);
    else m.content = text;
  });
  return out;
}

/** `image_url=2, file=1`: the header value and access-log note for parts forwarded without inspection. */
export function describeUninspected(uninspected: Record<string, number>): string {
  return Object.entries(uninspected)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .slice(0, 16)
    .map(([type, n]) => `${type.replace(/[^A-Za-z0-9_.-]/g, '_')}=${n}`)
    .join(', ');
}
