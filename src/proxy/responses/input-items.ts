import type { Item } from '../filter/judge.js';
import type { Kind, Role } from '../../inspect/types.js';
import { readPart, type ContentPart } from '../chat/content-parts.js';

/**
 * What Bastion reads in a Responses API request (point [A]), each text with its kind and provenance, and where to write
 * a redaction back. The request object must be the caller's own copy: redactions are written into it.
 * - `instructions` is the app's system prompt (role system); `input` as a plain string is the user's text.
 * - `message` items by role, as in chat: system/developer are the app's configuration, user text is a prompt,
 *   assistant text (output_text, refusal) is earlier model output.
 * - Items the model produced as calls (function_call arguments, custom_tool_call input, shell/computer actions, MCP
 *   arguments, the code a code interpreter ran, web/file search queries) are `tool_call`; everything a tool returned
 *   (function_call_output, custom tool and shell outputs, file_search results, code interpreter logs, MCP outputs and
 *   tool lists) is `tool_result`. An item type Bastion does not know is read as a tool result, every string in it.
 * - What cannot be read as text (images, audio, binary or id-only files, `item_reference`s to stored items, generated
 *   images) is counted by type, as chat content parts are. Reasoning `encrypted_content` is the provider's own
 *   ciphertext and is forwarded as is.
 */
export interface InputText extends Item {
  kind: Kind;
  role: Role;
  write(text: string): void;
  /** Where the text sits (item index, the call id a tool output answers): a quarantine verdict names it. */
  at?: { message?: number; call_id?: string };
}

export interface ExtractedInput {
  texts: InputText[];
  uninspected: Record<string, number>;
  /** Texts plus uninspected parts: bounded by the route. */
  count: number;
}

const KIND_BY_ROLE: Record<string, Kind> = { system: 'prompt', developer: 'prompt', user: 'prompt', assistant: 'output' };
const PROVENANCE: Record<string, Role> = { system: 'system', developer: 'system', user: 'user', assistant: 'assistant' };

/** Fields of model-made calls that carry what the model asked a tool to do. */
const CALL_FIELDS: Record<string, readonly string[]> = {
  function_call: ['arguments'],
  custom_tool_call: ['input'],
  local_shell_call: ['action'],
  shell_call: ['action'],
  computer_call: ['action'],
  apply_patch_call: ['operation'],
  mcp_call: ['arguments'],
  mcp_approval_request: ['arguments'],
  web_search_call: ['action'],
  file_search_call: ['queries'],
  code_interpreter_call: ['code'],
};
/** Identifiers and states, not content. */
const NOT_CONTENT = new Set(['type', 'id', 'call_id', 'name', 'status', 'role', 'approval_request_id', 'server_label', 'container_id', 'encrypted_content']);
/** Opaque binary payloads. */
const BINARY_FIELDS = new Set(['result', 'image_url', 'file_id', 'file_url']);
const MAX_DEPTH = 8;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export function extractInput(body: Obj, limit: number): ExtractedInput {
  const out: ExtractedInput = { texts: [], uninspected: {}, count: 0 };
  let at: InputText['at'];
  const add = (content: string, kind: Kind, role: Role, write: (text: string) => void) => {
    out.count++;
    if (content) out.texts.push({ content, kind, role, write, ...(at ? { at } : {}) });
  };
  const skip = (type: string) => {
    out.count++;
    const key = type.slice(0, 32) || 'unknown';
    out.uninspected[key] = (out.uninspected[key] ?? 0) + 1;
  };
  const full = () => out.count > limit;

  if (typeof body.instructions === 'string') add(body.instructions, 'prompt', 'system', (t) => (body.instructions = t));
  else if (Array.isArray(body.instructions)) readItems(body.instructions, 'system');
  if (typeof body.input === 'string') add(body.input, 'prompt', 'user', (t) => (body.input = t));
  else if (Array.isArray(body.input)) readItems(body.input, 'user');
  return out;

  function readItems(items: unknown[], defaultRole: string): void {
    for (const [index, item] of items.entries()) {
      if (full()) return;
      at = { message: index, ...(isObj(item) && typeof item.call_id === 'string' ? { call_id: item.call_id } : {}) };
      if (!isObj(item)) skip('invalid');
      else if (item.type === 'message' || (item.type === undefined && typeof item.role === 'string')) readMessage(item, defaultRole);
      else if (item.type === 'item_reference') skip('item_reference');
      else if (item.type === 'image_generation_call') skip('image_generation_call');
      else if (item.type === 'reasoning') walk(item, 'output', 'assistant', 0);
      else readToolItem(item);
    }
  }

  function readMessage(m: Obj, defaultRole: string): void {
    const roleName = typeof m.role === 'string' ? m.role : defaultRole;
    const kind = KIND_BY_ROLE[roleName] ?? 'prompt';
    const role = PROVENANCE[roleName] ?? 'user';
    if (typeof m.content === 'string') add(m.content, kind, role, (t) => (m.content = t));
    else if (Array.isArray(m.content)) for (const p of m.content) readResponsePart(p, kind, role);
  }

  function readToolItem(item: Obj): void {
    const calls = CALL_FIELDS[String(item.type)] ?? [];
    for (const [key, value] of Object.entries(item)) {
      if (NOT_CONTENT.has(key)) continue;
      if (key === 'output' && Array.isArray(value)) {
        for (const p of value) {
          if (isObj(p) && typeof p.type === 'string' && /^(input_|output_)/.test(p.type)) readResponsePart(p, 'tool_result', 'tool');
          else if (isObj(p)) walk(p, 'tool_result', 'tool', 1);
        }
        continue;
      }
      const call = calls.includes(key);
      visit(item, key, value, call ? 'tool_call' : 'tool_result', call ? 'assistant' : 'tool', 1);
    }
  }

  function walk(obj: Obj | unknown[], kind: Kind, role: Role, depth: number): void {
    for (const [key, value] of Object.entries(obj)) if (!NOT_CONTENT.has(key)) visit(obj as Obj, key, value, kind, role, depth);
  }

  function visit(parent: Obj, key: string, value: unknown, kind: Kind, role: Role, depth: number): void {
    if (full()) return;
    if (typeof value === 'string') {
      if (BINARY_FIELDS.has(key) || value.startsWith('data:')) return readBinary(parent, key, value, kind, role);
      add(value, kind, role, (t) => (parent[key] = t));
    } else if (typeof value === 'object' && value !== null) {
      if (depth >= MAX_DEPTH) skip('nested');
      else walk(value as Obj, kind, role, depth + 1);
    }
  }

  /** A data URL of a text type is read as text (and written back as one); anything else is uninspected. */
  function readBinary(parent: Obj, key: string, value: string, kind: Kind, role: Role): void {
    const reading = readPart({ type: 'file', file: { file_data: value } });
    if ('uninspectable' in reading || reading.field !== 'file') return skip(key);
    const mime = reading.mime;
    add(reading.text, kind, role, (t) => (parent[key] = `data:${mime};base64,${Buffer.from(t, 'utf8').toString('base64')}`));
  }

  function readResponsePart(part: unknown, kind: Kind, role: Role): void {
    if (full()) return;
    if (!isObj(part)) return skip('invalid');
    const p = part as ContentPart & Obj;
    if (typeof p.text === 'string') return add(p.text, kind, role, (t) => (p.text = t));
    if (p.type === 'refusal' && typeof p.refusal === 'string') return add(p.refusal, kind, role, (t) => (p.refusal = t));
    if (p.type === 'input_file' && typeof p.file_data === 'string') {
      const reading = readPart({ type: 'file', file: { file_data: p.file_data, filename: typeof p.filename === 'string' ? p.filename : undefined } });
      if ('uninspectable' in reading || reading.field !== 'file') return skip('input_file');
      const mime = reading.mime;
      return add(reading.text, kind, role, (t) => (p.file_data = `data:${mime};base64,${Buffer.from(t, 'utf8').toString('base64')}`));
    }
    skip(typeof p.type === 'string' ? p.type : 'unknown');
  }
}
