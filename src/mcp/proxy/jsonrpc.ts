import type { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import type { BastionInfo } from '../../proxy/chat/verdict-summary.js';
import { lazily } from '../../lazy.js';

/** One JSON-RPC 2.0 message as relayed (validated with the SDK's schema, fields kept as sent). */
export type Message = Record<string, unknown> & { jsonrpc: '2.0' };
export type Id = string | number;

/**
 * Error codes of the proxy's own answers (JSON-RPC reserves -32768…-32000 for the protocol; the SDK uses -32000,
 * -32001, -32002 and -32042, so these stay clear of them).
 */
export const CODES = {
  /** Guard point [B] or pinning refused an agent's request: it never reached the server. */
  REFUSED: -32050,
  /** Guard point [A] withheld what the server answered. */
  WITHHELD: -32051,
  /** The upstream failed, went away, or answered something that is not JSON-RPC before it answered this request. */
  UPSTREAM_FAILED: -32052,
  INVALID_REQUEST: -32600,
} as const;

let schema: typeof JSONRPCMessageSchema | undefined;
/**
 * Loads the SDK's JSON-RPC schema (with zod, ~15 MB a gateway that never relays MCP does not hold). The MCP routes
 * await it before they handle anything (a preHandler hook), so `isMessage` is synchronous where it is used.
 */
export const loadJsonRpcSchema = lazily(async () => {
  schema = (await import('@modelcontextprotocol/sdk/types.js')).JSONRPCMessageSchema;
});

export const isMessage = (value: unknown): value is Message => {
  // Fails closed: a caller that did not await loadJsonRpcSchema() is a bug, answered 500, never a message let through.
  if (!schema) throw new Error('the JSON-RPC schema is not loaded (await loadJsonRpcSchema() first)');
  return schema.safeParse(value).success;
};
export const isRequest = (m: Message): m is Message & { id: Id; method: string } => typeof m.method === 'string' && m.id !== undefined;
export const isNotification = (m: Message): boolean => typeof m.method === 'string' && m.id === undefined;
export const isResponse = (m: Message): m is Message & { id: Id } => m.method === undefined && (m.result !== undefined || m.error !== undefined);

export function errorResponse(id: Id | null, code: number, message: string, data?: Record<string, unknown>): Message {
  return { jsonrpc: '2.0', id, error: { code, message, ...(data ? { data } : {}) } } as Message;
}

/** A refusal or withholding the agent can show: the verdict travels in error.data.bastion (metadata, never content). */
export function verdictError(id: Id | null, code: number, message: string, bastion: BastionInfo | Record<string, unknown>): Message {
  return errorResponse(id, code, message, { bastion });
}

/** Most messages in one POST (a JSON-RPC batch); MCP clients send one. */
export const MAX_BATCH = 16;

/** The messages of an agent's POST body, or undefined when it is not JSON-RPC 2.0 (the route answers 4xx). */
export function messagesOf(body: unknown): Message[] | undefined {
  const list = Array.isArray(body) ? body : [body];
  if (list.length === 0 || list.length > MAX_BATCH) return undefined;
  return list.every(isMessage) ? (list as Message[]) : undefined;
}

/**
 * Deepest nesting of objects and arrays a message may have, either way. MCP messages (JSON schemas included) stay far
 * below it; a deeper one cannot be judged or written again safely (recursive serialisation overflows the stack).
 */
export const MAX_DEPTH = 128;

/** Whether `value` nests objects and arrays deeper than `max` levels (iterative: any depth is measured safely). */
export function nestsDeeper(value: unknown, max = MAX_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node as object)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/** MCP notifications are named notifications/…; any other method sent without an id is a request in disguise. */
export const isNotificationMethod = (method: string): boolean => method.startsWith('notifications/');
