import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { FlowState } from '../../flows/state.js';
import type { Services } from '../../services.js';
import { SessionFlowStates } from '../../mcp/proxy/flow-sessions.js';
import { flowHasher } from './hasher.js';

/**
 * One agent, two doors: its model traffic through the chat, Messages or Responses route and its tools through the MCP
 * proxy. The MCP proxy never sees the user's words, so on its own a destination the user typed is unknown there. An
 * agent that sends the same `Bastion-Flow-Session` value on both (any opaque id of its conversation, same tenant)
 * links them: each model request adds what its conversation has seen (keyed hashes only: the values the user and the
 * app named, the organisation's own hosts, and the untrusted values its results brought in) to the linked state, and
 * each MCP `tools/call` of that session is decided on the MCP session's state joined with it. The link only adds what
 * the conversation itself showed; untrusted values stay untrusted, so a link can also make the MCP decision refuse
 * more (a web page read by the app's own tool, its address then sent through an MCP tool).
 */

export const LINK_HEADER = 'bastion-flow-session';
export const LINK_TTL_MS = 24 * 3600_000;
const VALID = /^[\w.:@-]{1,128}$/;
const states = new WeakMap<Services, SessionFlowStates>();

/** Flow states kept per session (MCP sessions and linked conversations), one store per gateway. */
export function sessionStates(services: Services): SessionFlowStates {
  let s = states.get(services);
  if (!s) states.set(services, (s = new SessionFlowStates(services.storage.db, services.storage.dialect, flowHasher(services), LINK_TTL_MS)));
  return s;
}

/** The storage key of the request's linked conversation; undefined without the header (or with a value not an id). */
export function linkKeyOf(request: FastifyRequest): string | undefined {
  const raw = request.headers[LINK_HEADER];
  if (typeof raw !== 'string' || !VALID.test(raw)) return undefined;
  return `link:${createHash('sha256').update(raw).digest('base64url').slice(0, 32)}`;
}

/**
 * Adds a model request's conversation to its linked state before the request goes upstream (the tool calls its answer
 * asks for reach the MCP proxy after). Not stored: the MCP side decides without it, which only refuses more.
 */
export async function recordLinkedConversation(request: FastifyRequest, tenantId: string, state: FlowState): Promise<void> {
  const key = linkKeyOf(request);
  if (!key) return;
  try {
    await sessionStates(request.server.services).record(tenantId, key, (linked) => linked.absorb(state, 'linked conversation'));
  } catch (err) {
    request.log.warn({ code: (err as { code?: string }).code }, 'linked flow state not stored');
  }
}

/** The linked conversation's state for an MCP request carrying the header, or undefined. */
export async function linkedConversation(request: FastifyRequest, tenantId: string): Promise<FlowState | undefined> {
  const key = linkKeyOf(request);
  return key ? sessionStates(request.server.services).current(tenantId, key) : undefined;
}
