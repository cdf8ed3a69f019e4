import type { Kind, Role } from '../../inspect/types.js';

/** One text inside a JSON-RPC message that a guard judges, and how to write its redacted form back in place. */
export interface TextSlot {
  text: string;
  kind: Kind;
  role: Role;
  set(text: string): boolean;
}

export interface Slots {
  slots: TextSlot[];
  /** Parts that cannot be read as text (images, audio, blobs): counted, reported, refused under content_parts=block_unknown. */
  uninspected: number;
  /** More text fields than one message may carry (MAX_SLOTS): the message cannot be judged whole, so it is withheld. */
  overflow?: boolean;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Most text fields judged in one message; a message with more is withheld, never judged in part. */
export const MAX_SLOTS = 4096;

/**
 * Keys whose string values are the protocol's own words, not text anyone wrote for the model: a block's `type`, a
 * MIME type, the JSON-RPC and protocol versions. Skipped only while they look like one (a token, no spaces).
 */
const PROTOCOL_WORDS = new Set(['type', 'mimeType', 'jsonrpc', 'protocolVersion']);
const TOKEN = /^[\w.+/-]{1,100}$/;
/** Keys that hold base64 payloads (images, audio, blobs): not text while they are base64; counted as uninspected. */
const BINARY = new Set(['data', 'blob']);
const BASE64 = /^[A-Za-z0-9+/=\r\n]*$/;
/** A `data:` URL of base64 media (an icon): not text either. */
const MEDIA_URL = /^data:(?:image|audio|video)\/[\w.+-]+;base64,[A-Za-z0-9+/=]*$/;

function isPayload(key: string | number, text: string): boolean {
  if (typeof key === 'string' && PROTOCOL_WORDS.has(key) && TOKEN.test(text)) return true;
  return (typeof key === 'string' && BINARY.has(key) && BASE64.test(text)) || MEDIA_URL.test(text);
}

/**
 * Every string in `value`, wherever it sits, as a slot: the MCP schema puts model-readable text in many places (a
 * content block's text, a resource_link's name, uri, title and description, annotations, `_meta`, icons, a
 * server's instructions), and a server may add fields of its own, so nothing is skipped for not being known. Base64
 * payloads are counted as uninspected. Depth is bounded before any guard runs (jsonrpc.ts MAX_DEPTH).
 */
export function freeTextSlots(value: unknown, kind: Kind, role: Role, acc: Slots): void {
  const visit = (holder: Obj | unknown[], key: string | number, node: unknown): void => {
    if (typeof node === 'string') {
      if (node.length === 0) return;
      if (isPayload(key, node)) {
        if (!(typeof key === 'string' && PROTOCOL_WORDS.has(key))) acc.uninspected++;
        return;
      }
      if (acc.slots.length >= MAX_SLOTS) return void (acc.overflow = true);
      acc.slots.push({ text: node, kind, role, set: (t) => (((holder as Obj)[key as string] = t), true) });
    } else if (Array.isArray(node)) node.forEach((child, i) => visit(node, i, child));
    else if (isObj(node)) for (const [k, child] of Object.entries(node)) visit(node, k, child);
  };
  if (isObj(value)) for (const [k, child] of Object.entries(value)) visit(value, k, child);
}

/** Structured JSON judged as its text; a redaction must still parse, else the slot refuses it (and the result is withheld). */
function jsonSlot(holder: Obj, key: string, kind: Kind, role: Role, out: TextSlot[]): void {
  if (holder[key] === undefined) return;
  out.push({
    text: JSON.stringify(holder[key]),
    kind,
    role,
    set(text) {
      try {
        holder[key] = JSON.parse(text);
        return true;
      } catch {
        return false;
      }
    },
  });
}

const empty = (): Slots => ({ slots: [], uninspected: 0 });

/**
 * Server → agent answers judged like role=tool content: every free text of the result (tool results, resource
 * contents, prompt messages, instructions, what lists say of resources and prompts, `_meta`). A tool's
 * `structuredContent` is judged as one JSON text, so its parts are read together.
 */
export function resultSlots(result: Obj): Slots {
  const acc = empty();
  const { structuredContent, ...rest } = result;
  freeTextSlots(rest, 'tool_result', 'tool', acc);
  if (structuredContent !== undefined) jsonSlot(result, 'structuredContent', 'tool_result', 'tool', acc.slots);
  return acc;
}

/**
 * Server-initiated requests that put text before the agent's model or user (sampling, elicitation): every free text
 * of their params (system prompt, messages, metadata, model hints) judged as an untrusted prompt; an elicitation's
 * requested schema as one JSON text.
 */
export function serverRequestSlots(method: string, params: Obj): Slots {
  const acc = empty();
  if (method === 'elicitation/create') {
    const { requestedSchema, ...rest } = params;
    freeTextSlots(rest, 'prompt', 'user', acc);
    if (requestedSchema !== undefined) jsonSlot(params, 'requestedSchema', 'prompt', 'user', acc.slots);
  } else freeTextSlots(params, 'prompt', 'user', acc);
  return acc;
}

/**
 * Server notifications: an agent may hand any of their text to its model (log and progress messages, cancellation
 * reasons, the uri of an updated resource), so every free text in their params is judged like tool output.
 */
export function notificationSlots(method: string, params: Obj): Slots {
  const acc = empty();
  if (method === 'notifications/message') {
    const { data, ...rest } = params;
    freeTextSlots(rest, 'tool_result', 'tool', acc);
    // A log's data is any JSON: a string is judged as itself, anything else as its JSON text.
    if (typeof data === 'string') {
      if (data.length > 0) acc.slots.push({ text: data, kind: 'tool_result', role: 'tool', set: (t) => ((params.data = t), true) });
    } else jsonSlot(params, 'data', 'tool_result', 'tool', acc.slots);
  } else freeTextSlots(params, 'tool_result', 'tool', acc);
  return acc;
}
