import { argumentsNameSomeone, resultKind } from './labels.js';
import { readCitedParts, readHostedItem, readMessagesSource, readPartSources, stringsOf } from './sources.js';
import type { FlowState } from './state.js';
import type { FlowPolicy } from './types.js';

/**
 * Reads a request's own conversation into a flow state, for each API's shape: what the user and the app wrote
 * (named values), which tool calls the model made (call id → tool), and each tool result with its kind. The other
 * sources of untrusted content (server-side tools, hosted tools, documents and files) are read by the table in
 * sources.ts. Images carry no traced values.
 */

type Obj = Record<string, unknown>;
const MAX_TEXT = 64 * 1024;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every text inside a content value: a string, or parts with `text` / nested `content` (bounded). */
export function textOf(content: unknown, depth = 0): string {
  if (typeof content === 'string') return content.slice(0, MAX_TEXT);
  if (depth > 4) return '';
  if (Array.isArray(content)) return content.slice(0, 256).map((p) => textOf(p, depth + 1)).filter(Boolean).join('\n').slice(0, MAX_TEXT);
  if (isObj(content)) {
    if (typeof content.text === 'string') return content.text.slice(0, MAX_TEXT);
    if (content.content !== undefined) return textOf(content.content, depth + 1);
    if (isObj(content.source) && typeof content.source.data === 'string' && content.source.type === 'text') return content.source.data.slice(0, MAX_TEXT);
  }
  return '';
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
/** A call's arguments as text (a JSON string on the wire, or an object), bounded: their values are what the model wrote. */
const argumentsOf = (v: unknown): string | undefined => (typeof v === 'string' ? v.slice(0, MAX_TEXT) : v === undefined ? undefined : JSON.stringify(v).slice(0, MAX_TEXT));

/** OpenAI chat `messages`. */
export function readChat(state: FlowState, policy: FlowPolicy, messages: readonly unknown[]): void {
  for (const m of messages) {
    if (!isObj(m)) continue;
    const role = str(m.role);
    readPartSources(state, policy, m.content, 'chat');
    if (role === 'system' || role === 'developer' || role === 'user') state.addNamed(textOf(m.content), role === 'user' ? 'user' : 'app');
    else if (role === 'assistant' && Array.isArray(m.tool_calls)) {
      for (const c of m.tool_calls) if (isObj(c) && isObj(c.function)) state.addCall(str(c.id), str(c.function.name) ?? '', argumentsOf(c.function.arguments));
    } else if (role === 'tool' || role === 'function') {
      const callId = str(m.tool_call_id);
      const tool = state.toolOf(callId) ?? str(m.name) ?? 'unknown';
      state.addResult(tool, callId, resultKind(policy, tool, undefined, state.namesOther(callId)), textOf(m.content));
    }
  }
}

/** Anthropic Messages `system` and `messages`. */
export function readMessages(state: FlowState, policy: FlowPolicy, system: unknown, messages: readonly unknown[]): void {
  state.addNamed(textOf(system), 'app');
  for (const m of messages) {
    if (!isObj(m)) continue;
    const role = str(m.role);
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? m.content : [];
    for (const b of blocks) {
      if (!isObj(b)) continue;
      if (role === 'assistant' && (b.type === 'tool_use' || b.type === 'server_tool_use')) state.addCall(str(b.id), str(b.name) ?? '', argumentsOf(b.input));
      else if (role === 'user' && b.type === 'text') state.addNamed(textOf(b));
      else if (b.type === 'text') readMessagesSource(state, policy, b);
      else if (b.type === 'tool_result') {
        const callId = str(b.tool_use_id);
        const tool = state.toolOf(callId) ?? 'unknown';
        state.addResult(tool, callId, resultKind(policy, tool, undefined, state.namesOther(callId)), textOf(b.content));
      } else readMessagesSource(state, policy, b);
    }
  }
}

const RESPONSE_CALLS = new Set(['function_call', 'custom_tool_call', 'local_shell_call', 'shell_call', 'computer_call', 'apply_patch_call']);
const RESPONSE_OUTPUTS = new Set(['function_call_output', 'custom_tool_call_output', 'local_shell_call_output', 'shell_call_output', 'computer_call_output', 'apply_patch_call_output']);

/** OpenAI Responses `instructions` and `input` (a string, or items). */
export function readResponsesInput(state: FlowState, policy: FlowPolicy, instructions: unknown, input: unknown): void {
  state.addNamed(textOf(instructions), 'app');
  if (typeof input === 'string') return state.addNamed(input);
  if (!Array.isArray(input)) return;
  for (const item of input) readResponsesItem(state, policy, item, 'input');
}

/** One Responses item, from the request's input or a stored response's output. */
export function readResponsesItem(state: FlowState, policy: FlowPolicy, item: unknown, from: 'input' | 'output'): void {
  if (!isObj(item)) return;
  const type = str(item.type) ?? (item.role !== undefined ? 'message' : '');
  if (type === 'message') {
    const role = str(item.role);
    if (from === 'input' && (role === 'user' || role === 'system' || role === 'developer')) state.addNamed(textOf(item.content), role === 'user' ? 'user' : 'app');
    readPartSources(state, policy, item.content, 'responses');
    if (role === 'assistant' || from === 'output') readCitedParts(state, item);
  } else if (RESPONSE_CALLS.has(type)) {
    state.addCall(str(item.call_id), str(item.name) ?? type, argumentsOf(item.arguments ?? item.input ?? item.action));
  } else if (RESPONSE_OUTPUTS.has(type)) {
    const callId = str(item.call_id);
    const tool = state.toolOf(callId) ?? 'unknown';
    state.addResult(tool, callId, resultKind(policy, tool, undefined, state.namesOther(callId)), textOf(item.output));
  } else if (type === 'mcp_call' && typeof item.output === 'string') {
    const tool = str(item.name) ?? 'mcp';
    const args = argumentsOf(item.arguments);
    state.addCall(str(item.id), tool, args);
    state.addResult(tool, str(item.id), resultKind(policy, tool, str(item.server_label), argumentsNameSomeone(args)), item.output);
  } else if (type === 'mcp_list_tools') {
    // A remote server's tool list: its descriptions are that server's words, judged by the tenant's label for it.
    state.addResult('mcp_list_tools', str(item.id), resultKind(policy, '*', str(item.server_label)), stringsOf(item.tools));
  } else if (type !== 'mcp_call' && !(from === 'output' && state.sources.some((s) => s.callId !== undefined && s.callId === str(item.id)))) {
    // A hosted tool's item is read once, whether it came back in the input or was noted as the answer was guarded.
    readHostedItem(state, item);
  }
}
