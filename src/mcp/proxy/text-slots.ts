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
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

function stringSlot(holder: Obj, key: string, kind: Kind, role: Role, out: TextSlot[]): void {
  const value = holder[key];
  if (typeof value === 'string' && value.length > 0) out.push({ text: value, kind, role, set: (t) => ((holder[key] = t), true) });
}

/** An MCP content block (tool result, prompt message, sampling message): its text, or its embedded resource's text. */
function contentSlots(block: unknown, kind: Kind, role: Role, acc: Slots): void {
  if (!isObj(block)) return;
  if (block.type === 'text') stringSlot(block, 'text', kind, role, acc.slots);
  else if (block.type === 'resource' && isObj(block.resource)) resourceSlots(block.resource, kind, role, acc);
  else if (block.type === 'resource_link') {
    stringSlot(block, 'description', kind, role, acc.slots);
    stringSlot(block, 'title', kind, role, acc.slots);
  } else acc.uninspected++;
}

function resourceSlots(resource: Obj, kind: Kind, role: Role, acc: Slots): void {
  if (typeof resource.text === 'string') stringSlot(resource, 'text', kind, role, acc.slots);
  else acc.uninspected++;
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

const many = (value: unknown): unknown[] => (Array.isArray(value) ? value.slice(0, 1024) : value === undefined ? [] : [value]);

/**
 * Server → agent answers judged like role=tool content: tool results, resource contents, prompt messages, instructions,
 * and the names and descriptions of listed resources, resource templates and prompts (with their arguments).
 */
export function resultSlots(method: string, result: Obj): Slots {
  const acc: Slots = { slots: [], uninspected: 0 };
  const tool = ['tool_result', 'tool'] as const;
  if (method === 'tools/call') {
    for (const block of many(result.content)) contentSlots(block, ...tool, acc);
    jsonSlot(result, 'structuredContent', ...tool, acc.slots);
  } else if (method === 'resources/read') {
    for (const item of many(result.contents)) if (isObj(item)) resourceSlots(item, ...tool, acc);
  } else if (method === 'prompts/get') {
    stringSlot(result, 'description', ...tool, acc.slots);
    for (const m of many(result.messages)) if (isObj(m)) for (const block of many(m.content)) contentSlots(block, ...tool, acc);
  } else if (method === 'initialize') {
    stringSlot(result, 'instructions', ...tool, acc.slots);
  } else if (method in LISTS) {
    // What a server says about its resources and prompts reaches the model like its tool descriptions do.
    const items = result[LISTS[method]];
    if (Array.isArray(items) && items.length > MAX_LISTED) acc.uninspected += items.length - MAX_LISTED;
    for (const item of many(items)) {
      if (!isObj(item)) continue;
      for (const field of DESCRIBING) stringSlot(item, field, ...tool, acc.slots);
      for (const arg of many(item.arguments)) if (isObj(arg)) for (const field of DESCRIBING) stringSlot(arg, field, ...tool, acc.slots);
    }
  }
  return acc;
}

const LISTS: Record<string, string> = { 'resources/list': 'resources', 'resources/templates/list': 'resourceTemplates', 'prompts/list': 'prompts' };
const DESCRIBING = ['name', 'title', 'description'] as const;
const MAX_LISTED = 1024;

/** Server-initiated requests that put text before the agent's model or user: judged as untrusted prompts. */
export function serverRequestSlots(method: string, params: Obj): Slots {
  const acc: Slots = { slots: [], uninspected: 0 };
  const prompt = ['prompt', 'user'] as const;
  if (method === 'sampling/createMessage') {
    stringSlot(params, 'systemPrompt', ...prompt, acc.slots);
    for (const m of many(params.messages)) if (isObj(m)) for (const block of many(m.content)) contentSlots(block, ...prompt, acc);
  } else if (method === 'elicitation/create') {
    stringSlot(params, 'message', ...prompt, acc.slots);
    jsonSlot(params, 'requestedSchema', ...prompt, acc.slots);
  }
  return acc;
}

/** Server notifications whose text an agent may show to its model or user: judged like tool output. */
export const TEXT_NOTIFICATIONS: ReadonlySet<string> = new Set(['notifications/message', 'notifications/progress', 'notifications/cancelled']);

export function notificationSlots(method: string, params: Obj): Slots {
  const acc: Slots = { slots: [], uninspected: 0 };
  const tool = ['tool_result', 'tool'] as const;
  if (method === 'notifications/message') {
    // A log message's data is any JSON: a string is judged as itself, anything else as its JSON text.
    if (typeof params.data === 'string') stringSlot(params, 'data', ...tool, acc.slots);
    else jsonSlot(params, 'data', ...tool, acc.slots);
    stringSlot(params, 'logger', ...tool, acc.slots);
  } else if (method === 'notifications/progress') {
    stringSlot(params, 'message', ...tool, acc.slots);
  } else if (method === 'notifications/cancelled') {
    stringSlot(params, 'reason', ...tool, acc.slots);
  }
  return acc;
}
