import { resultKind } from './labels.js';
import type { FlowState } from './state.js';
import type { FlowPolicy, SourceKind } from './types.js';

/**
 * Where content a stranger may have written enters a conversation, besides the app's own tool results: the table of
 * sources. Each row names the parts or items of one API that carry such content, the tool it is attributed to and
 * how its kind is found. Server-side tools (run by the provider: web fetch and search, code execution, file search)
 * read the open web or files nobody vouched for: always untrusted. Documents and files attached to a turn are
 * untrusted too, read when they are text and counted when they are not. An item type Bastion does not know is read
 * as an untrusted result, every string in it. A new source is one row here and one test.
 */

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

const MAX_TEXT = 64 * 1024;
const MAX_DEPTH = 8;
/** Identifiers, states and ciphertext: not content (the provider's encrypted page content cannot be read). */
const NOT_CONTENT = new Set(['type', 'id', 'tool_use_id', 'call_id', 'status', 'signature', 'cache_control', 'media_type', 'encrypted_content', 'encrypted_index', 'file_id', 'container_id', 'return_code', 'score']);
const TEXT_MEDIA = /^(?:text\/|application\/(?:json|xml|ya?ml|csv|markdown|x-ndjson|[a-z0-9.-]+\+(?:json|xml)))/i;

/** A document's readable text: a text source, base64 of a text type, a URL source's address, nested content. */
export function documentText(block: Obj): string {
  const source = block.source;
  const parts = [str(block.title), str(block.context)];
  if (isObj(source)) {
    if (source.type === 'text') parts.push(str(source.data));
    else if (source.type === 'base64' && typeof source.data === 'string' && TEXT_MEDIA.test(String(source.media_type ?? ''))) parts.push(decodeText(source.data));
    else if (source.type === 'url') parts.push(str(source.url));
    else if (source.type === 'content') parts.push(stringsOf(source.content));
  }
  return parts.filter(Boolean).join('\n').slice(0, MAX_TEXT);
}

function decodeText(base64: string): string {
  try {
    return Buffer.from(base64.slice(0, MAX_TEXT * 2), 'base64').toString('utf8');
  } catch {
    return '';
  }
}

/** Every string inside a value (documents read as documents), bounded in depth and length. */
export function stringsOf(value: unknown, depth = 0): string {
  if (typeof value === 'string') return value.startsWith('data:') ? '' : value.slice(0, MAX_TEXT);
  if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return '';
  if (isObj(value) && value.type === 'document') return documentText(value);
  const entries = Array.isArray(value) ? value.slice(0, 256).map((v) => ['', v] as const) : Object.entries(value).slice(0, 256);
  let out = '';
  for (const [key, v] of entries) {
    if (NOT_CONTENT.has(key)) continue;
    const s = stringsOf(v, depth + 1);
    if (s) out += (out ? '\n' : '') + s;
    if (out.length >= MAX_TEXT) return out.slice(0, MAX_TEXT);
  }
  return out;
}

interface Row {
  /** The tool the content is attributed to (by the call id when the call was seen). */
  tool(part: Obj, state: FlowState): string;
  /** `untrusted` always, or `label`: the tenant's label for the tool (an MCP connector's server is the tenant's to judge). */
  kind: 'untrusted' | 'label';
  callId?(part: Obj): string | undefined;
  server?(part: Obj, state: FlowState): string | undefined;
  text(part: Obj): string;
}

const serverTool = (p: Obj, s: FlowState) => s.toolOf(str(p.tool_use_id)) ?? String(p.type).replace(/_tool_result$/, '');
const untrustedPart = (tool: string): Row => ({ tool: () => tool, kind: 'untrusted', text: (p) => (p.type === 'document' ? documentText(p) : stringsOf(p)) });

/** Anthropic Messages content blocks that carry what something other than the app's own tools returned. */
const MESSAGES: { match(type: string): boolean; row: Row }[] = [
  // Text the model wrote citing a source (`cited_text` of a web search result, a document): the source's own words.
  { match: (t) => t === 'text', row: { tool: (p) => citedTool(p.citations), kind: 'untrusted', text: (p) => stringsOf(p.citations) } },
  { match: (t) => t === 'mcp_tool_result', row: { tool: serverTool, kind: 'label', callId: (p) => str(p.tool_use_id), server: (p, s) => mcpServers.get(s)?.get(str(p.tool_use_id) ?? ''), text: (p) => stringsOf(p.content) } },
  // web_fetch, web_search, code_execution, bash_code_execution, text_editor_code_execution, tool_search … results.
  { match: (t) => t !== 'tool_result' && t.endsWith('_tool_result'), row: { tool: serverTool, kind: 'untrusted', callId: (p) => str(p.tool_use_id), text: (p) => stringsOf(p.content) } },
  { match: (t) => t === 'document', row: untrustedPart('document') },
  { match: (t) => t === 'search_result', row: untrustedPart('search_result') },
];

/** Chat content parts of any turn: a file attached to it. */
const CHAT: Record<string, Row> = { file: { tool: () => 'file', kind: 'untrusted', text: (p) => fileText(isObj(p.file) ? p.file : {}) } };

/** Responses input parts of a message: a file attached to it. */
const RESPONSES_PARTS: Record<string, Row> = { input_file: { tool: () => 'file', kind: 'untrusted', text: (p) => fileText(p) } };

/** Responses items run by the provider (hosted tools) or only referred to: untrusted wherever they appear. */
const HOSTED: Record<string, string> = {
  web_search_call: 'web_search',
  file_search_call: 'file_search',
  code_interpreter_call: 'code_interpreter',
  // A stored item Bastion never saw: earlier content it cannot account for.
  item_reference: '(stored item)',
};
/** Responses items that bring in no content a stranger wrote (calls and messages are read by conversation.ts). */
const NOT_SOURCES = new Set(['message', 'reasoning', 'image_generation_call', 'mcp_approval_request', 'mcp_approval_response', 'compaction']);

function fileText(file: Obj): string {
  const data = str(file.file_data);
  if (!data) return str(file.filename) ?? '';
  const m = /^data:([a-z0-9.+-]{1,64}\/[a-z0-9.+-]{1,128})(?:;[^,]{0,256})?;base64,/i.exec(data.slice(0, 400));
  const textual = m ? TEXT_MEDIA.test(m[1]) : /\.(txt|md|csv|json|xml|ya?ml|html?|log|eml)$/i.test(str(file.filename) ?? '');
  return [str(file.filename), textual ? decodeText(m ? data.slice(m[0].length) : data) : ''].filter(Boolean).join('\n');
}

// MCP connector calls (mcp_tool_use) name their server: kept per state so the result is judged by that server's label.
const mcpServers = new WeakMap<FlowState, Map<string, string>>();

function add(state: FlowState, policy: FlowPolicy, row: Row, part: Obj): void {
  const tool = row.tool(part, state);
  const kind: SourceKind = row.kind === 'untrusted' ? 'untrusted' : resultKind(policy, tool, row.server?.(part, state));
  state.addResult(tool, row.callId?.(part), kind, row.text(part));
}

/** An Anthropic block: recorded when it is a source; false when the table has no row for it. */
export function readMessagesSource(state: FlowState, policy: FlowPolicy, block: Obj): boolean {
  const type = String(block.type ?? '');
  if (type === 'mcp_tool_use' && typeof block.id === 'string' && typeof block.server_name === 'string') {
    let servers = mcpServers.get(state);
    if (!servers) mcpServers.set(state, (servers = new Map()));
    if (servers.size < 1024) servers.set(block.id, block.server_name);
  }
  const row = MESSAGES.find((r) => r.match(type))?.row;
  if (!row || (type === 'text' && !(Array.isArray(block.citations) && block.citations.length > 0))) return false;
  add(state, policy, row, block);
  return true;
}

/** The source parts of a chat or Responses message's content (files attached to the turn). */
export function readPartSources(state: FlowState, policy: FlowPolicy, content: unknown, api: 'chat' | 'responses'): void {
  if (!Array.isArray(content)) return;
  const rows = api === 'chat' ? CHAT : RESPONSES_PARTS;
  for (const part of content.slice(0, 256)) {
    const row = isObj(part) ? rows[String(part.type)] : undefined;
    if (row) add(state, policy, row, part as Obj);
  }
}

const CITATION_TOOL: Record<string, string> = { web_search_result_location: 'web_search', url_citation: 'web_search', file_citation: 'file_search', container_file_citation: 'code_interpreter' };
function citedTool(citations: unknown): string {
  const first = Array.isArray(citations) && isObj(citations[0]) ? String(citations[0].type) : '';
  return CITATION_TOOL[first] ?? 'document';
}

/**
 * An assistant message's parts that cite a source (Responses `url_citation`, `file_citation` annotations): the cited
 * span is the source's words, whoever wrote the message around it. Each message is read once (by its id).
 */
export function readCitedParts(state: FlowState, item: Obj): void {
  if (!Array.isArray(item.content)) return;
  const id = str(item.id);
  if (id && state.sources.some((s) => s.callId === id)) return;
  for (const part of item.content.slice(0, 64)) {
    if (!isObj(part) || typeof part.text !== 'string' || !Array.isArray(part.annotations)) continue;
    const cited = part.annotations.filter((a): a is Obj => isObj(a) && String(a.type) in CITATION_TOOL).slice(0, 64);
    if (cited.length === 0) continue;
    const text = part.text as string;
    const spans = cited.map((a) => [typeof a.start_index === 'number' ? text.slice(a.start_index, typeof a.end_index === 'number' ? a.end_index : undefined) : '', str(a.url), str(a.title)].filter(Boolean).join('\n'));
    state.addResult(citedTool(cited), id, 'untrusted', spans.join('\n').slice(0, MAX_TEXT));
  }
}

/**
 * A Responses item that is neither a message nor a call the app runs nor its output: a hosted tool's item (its
 * queries, sources and results), a reference to a stored item, or a type Bastion does not know. Returns false for
 * the items that bring in no content.
 */
export function readHostedItem(state: FlowState, item: Obj): boolean {
  const type = String(item.type ?? '');
  if (NOT_SOURCES.has(type)) return false;
  const tool = HOSTED[type] ?? (type.replace(/_call$/, '') || 'unknown');
  state.addResult(tool, str(item.id), 'untrusted', stringsOf(item));
  return true;
}
