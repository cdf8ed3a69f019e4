import type { Kind, Role } from '../../inspect/types.js';
import type { InputText, ExtractedInput } from '../responses/input-items.js';
import { readPart } from '../chat/content-parts.js';

/**
 * What Bastion reads in an Anthropic Messages request (point [A]), each text with its kind and provenance and where to
 * write a redaction back. The request object must be the caller's own copy: redactions are written into it.
 * - `system` (a string or text blocks) is the app's own instructions (role system, weighed under the tenant's
 *   system-message policy).
 * - User `text` blocks are prompts; assistant `text` and `thinking` blocks are earlier model output; an assistant
 *   `tool_use` block's input is a tool call (judged as its JSON text, written back as JSON).
 * - `tool_result` blocks are tool results: their string content, nested text blocks, and `document` blocks with a text
 *   source, a base64 source of a text type, or a content source of text blocks. `search_result` blocks and server-tool results (web search, web fetch,
 *   code execution…) are read as tool results, every string in them.
 * - What cannot be read as text (images, PDF or URL documents, files by id, redacted thinking) is counted by type, as
 *   chat content parts are.
 */
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Identifiers, states and signatures: not content. */
const NOT_CONTENT = new Set(['type', 'id', 'tool_use_id', 'name', 'signature', 'cache_control', 'media_type', 'citations', 'is_error', 'encrypted_content', 'encrypted_index']);
const MAX_DEPTH = 8;

export function extractMessagesInput(body: Obj, limit: number): ExtractedInput {
  const out: ExtractedInput = { texts: [], uninspected: {}, count: 0 };
  const full = () => out.count > limit;
  let at: InputText['at'];
  const add = (content: string, kind: Kind, role: Role, write: (text: string) => void) => {
    out.count++;
    if (content) out.texts.push({ content, kind, role, write, ...(at ? { at } : {}) } satisfies InputText);
  };
  const skip = (type: string) => {
    out.count++;
    const key = type.slice(0, 32) || 'unknown';
    out.uninspected[key] = (out.uninspected[key] ?? 0) + 1;
  };

  if (typeof body.system === 'string') add(body.system, 'prompt', 'system', (t) => (body.system = t));
  else if (Array.isArray(body.system)) for (const block of body.system) readBlock(block, 'prompt', 'system');
  if (Array.isArray(body.messages)) {
    for (const [index, m] of body.messages.entries()) {
      if (full()) break;
      at = { message: index };
      if (!isObj(m)) {
        skip('invalid');
        continue;
      }
      const assistant = m.role === 'assistant';
      const kind: Kind = assistant ? 'output' : 'prompt';
      const role: Role = assistant ? 'assistant' : 'user';
      if (typeof m.content === 'string') add(m.content, kind, role, (t) => (m.content = t));
      else if (Array.isArray(m.content)) for (const block of m.content) readBlock(block, kind, role);
    }
  }
  return out;

  function readBlock(block: unknown, kind: Kind, role: Role): void {
    if (full()) return;
    if (!isObj(block)) return skip('invalid');
    switch (block.type) {
      case 'text':
        if (typeof block.text === 'string') return add(block.text, kind, role, (t) => (block.text = t));
        return skip('text');
      // Earlier reasoning the app sends back: judged as model output. A redaction breaks its signature, so the upstream
      // refuses the request: it fails closed rather than forwarding the credential.
      case 'thinking':
        if (typeof block.thinking === 'string') return add(block.thinking, 'output', 'assistant', (t) => (block.thinking = t));
        return skip('thinking');
      case 'tool_use':
        return readToolUse(block);
      case 'tool_result':
        return located(block, () => readToolResult(block));
      case 'document':
        return readDocument(block, kind, role);
      case 'image':
      case 'redacted_thinking':
      case 'container_upload':
        return skip(String(block.type));
      default:
        // search_result, server_tool_use, web_search_tool_result and other server-side blocks: what came from a tool.
        return located(block, () => walk(block, 'tool_result', 'tool', 0));
    }
  }

  /** Texts read inside a result block carry the call id it answers. */
  function located(block: Obj, read: () => void): void {
    const outer = at;
    if (outer && typeof block.tool_use_id === 'string') at = { ...outer, call_id: block.tool_use_id };
    read();
    at = outer;
  }

  function readToolUse(block: Obj): void {
    const input = block.input ?? {};
    const text = typeof input === 'string' ? input : JSON.stringify(input);
    add(text === '{}' ? '' : text, 'tool_call', 'assistant', (t) => {
      try {
        block.input = JSON.parse(t);
      } catch {
        // A redaction that breaks the input's JSON: the redacted text is kept under one key rather than the original.
        block.input = { redacted: t };
      }
    });
  }

  function readToolResult(block: Obj): void {
    if (typeof block.content === 'string') return add(block.content, 'tool_result', 'tool', (t) => (block.content = t));
    if (!Array.isArray(block.content)) return;
    for (const part of block.content) readBlock(part, 'tool_result', 'tool');
  }

  /** A text source is read (and written back), base64 of a text type and a content source's text blocks too; PDF, URL and file sources are not. */
  function readDocument(block: Obj, kind: Kind, role: Role): void {
    const source = block.source;
    if (isObj(source) && source.type === 'text' && typeof source.data === 'string') {
      if (typeof block.title === 'string') add(block.title, kind, role, (t) => (block.title = t));
      if (typeof block.context === 'string') add(block.context, kind, role, (t) => (block.context = t));
      return add(source.data, kind, role, (t) => (source.data = t));
    }
    // A base64 source of a text type (text/plain, CSV, JSON …) is a text document: read, and written back as base64.
    if (isObj(source) && source.type === 'base64' && typeof source.data === 'string' && typeof source.media_type === 'string') {
      const reading = readPart({ type: 'file', file: { file_data: `data:${source.media_type};base64,${source.data}` } });
      if (!('uninspectable' in reading) && reading.field === 'file') {
        if (typeof block.title === 'string') add(block.title, kind, role, (t) => (block.title = t));
        return add(reading.text, kind, role, (t) => (source.data = Buffer.from(t, 'utf8').toString('base64')));
      }
    }
    if (isObj(source) && source.type === 'content' && Array.isArray(source.content)) {
      for (const part of source.content) readBlock(part, kind, role);
      return;
    }
    skip('document');
  }

  function walk(obj: Obj | unknown[], kind: Kind, role: Role, depth: number): void {
    for (const [key, value] of Object.entries(obj)) {
      if (full()) return;
      if (NOT_CONTENT.has(key)) continue;
      if (typeof value === 'string') {
        // Base64 payloads (images in search results, encrypted blobs) are not text.
        if (key === 'data' || value.startsWith('data:')) skip(key);
        else add(value, kind, role, (t) => ((obj as Obj)[key] = t));
      } else if (typeof value === 'object' && value !== null) {
        if (depth >= MAX_DEPTH) skip('nested');
        else if (isObj(value) && (value.type === 'image' || value.type === 'document')) readBlock(value, kind, role);
        else walk(value as Obj, kind, role, depth + 1);
      }
    }
  }
}
