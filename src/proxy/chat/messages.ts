import type { Kind } from '../../inspect/types.js';

/** Where an inspected text came from in a chat-completions request, so a redaction can be written back. */
export interface TextRef {
  message: number;
  /** Index into a content-part array, or -1 for string content. */
  part: number;
  /** Index into assistant tool_calls, or -1. */
  toolCall: number;
  kind: Kind;
  content: string;
}

interface ContentPart {
  type?: string;
  text?: string;
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

export interface Extracted {
  refs: TextRef[];
  /** Image, audio and file parts are not inspected, but counted so the verdict can say so. */
  skippedParts: number;
}

export function extractTexts(messages: ChatMessage[]): Extracted {
  const refs: TextRef[] = [];
  let skippedParts = 0;
  messages.forEach((m, message) => {
    const kind = KIND_BY_ROLE[m.role ?? ''] ?? 'prompt';
    if (typeof m.content === 'string' && m.content) refs.push({ message, part: -1, toolCall: -1, kind, content: m.content });
    if (Array.isArray(m.content)) {
      m.content.forEach((p, part) => {
        if (typeof p?.text === 'string' && p.text) refs.push({ message, part, toolCall: -1, kind, content: p.text });
        else skippedParts++;
      });
    }
    m.tool_calls?.forEach((call, toolCall) => {
      const args = call?.function?.arguments;
      if (typeof args === 'string' && args) refs.push({ message, part: -1, toolCall, kind: 'tool_call', content: args });
    });
  });
  return { refs, skippedParts };
}

/** Writes redacted texts back into a copy of the messages (the original request object is not mutated). */
export function applyRedactions(messages: ChatMessage[], refs: TextRef[], redacted: (string | undefined)[]): ChatMessage[] {
  const out: ChatMessage[] = structuredClone(messages);
  refs.forEach((ref, i) => {
    const text = redacted[i];
    if (text === undefined || text === ref.content) return;
    const m = out[ref.message];
    if (ref.toolCall >= 0) m.tool_calls![ref.toolCall].function!.arguments = text;
    else if (ref.part >= 0) (m.content as ContentPart[])[ref.part].text = text;
    else m.content = text;
  });
  return out;
}
