import type { FastifyRequest } from 'fastify';
import { readResponsesInput, readResponsesItem } from '../../flows/conversation.js';
import { FlowState, type StoredFlowState } from '../../flows/state.js';
import { loadFlowState, saveFlowState } from '../../storage/flows.js';
import { attachFlows, flowContext } from './context.js';

/**
 * Flow state for the Responses API: a request continuing a stored Response (`previous_response_id`) starts from that
 * Response's state (metadata kept in storage, never content), extended by its own input; the Response it gets back
 * is stored under its id with the calls it made, for the next turn. A continued Response whose state is not found
 * (expired, stored by a gateway that did not see it) counts as having seen untrusted content: earlier turns Bastion
 * cannot account for are treated as a stranger's.
 */

export const FLOW_STATE_TTL_MS = 7 * 24 * 3600_000;
const key = (id: string) => `response:${id.slice(0, 180)}`;

export async function attachResponsesFlows(request: FastifyRequest, body: Record<string, unknown>): Promise<void> {
  await attachFlows(request, 'responses', async (ctx) => {
    const previous = typeof body.previous_response_id === 'string' ? body.previous_response_id : undefined;
    if (previous) {
      const stored = await loadFlowState(request.server.services.storage.db, ctx.tenantId, key(previous));
      ctx.state = restore(ctx.state, stored);
    }
    readResponsesInput(ctx.state, ctx.policy, body.instructions, body.input);
  });
}

function restore(fresh: FlowState, stored: StoredFlowState | undefined): FlowState {
  if (stored) {
    try {
      return FlowState.fromStored(fresh.hashFn, stored);
    } catch {
      // malformed: as if not found
    }
  }
  fresh.addResult('(earlier turns)', undefined, 'untrusted', '');
  return fresh;
}

/** Stores the state under the Response's id, with the calls it made. A Response with `store: false` cannot be continued. */
export async function rememberResponse(request: FastifyRequest, response: Record<string, unknown>): Promise<void> {
  const ctx = flowContext(request);
  if (!ctx || typeof response.id !== 'string' || response.store === false) return;
  if (Array.isArray(response.output)) for (const item of response.output) readResponsesItem(ctx.state, ctx.policy, item, 'output');
  try {
    await saveFlowState(request.server.services.storage.db, ctx.tenantId, key(response.id), ctx.state.toStored(), FLOW_STATE_TTL_MS);
  } catch (err) {
    // Not stored: the next turn finds no state and is judged as after untrusted content (fail closed).
    request.log.warn({ code: (err as { code?: string }).code }, 'flow state not stored');
  }
}
