import type { FastifyRequest } from 'fastify';
import { FlowState } from '../../flows/state.js';
import type { DetectionPolicy } from '../../flows/typed-values.js';
import { DEFAULT_FLOW_POLICY, type FlowPolicy } from '../../flows/types.js';
import type { Hasher } from '../../flows/values.js';
import { flowHasher } from './hasher.js';

export { flowHasher };
import { tenantPolicies } from '../../policy/tenant-policies.js';
import { recordLinkedConversation } from './linked-sessions.js';
import type { Services } from '../../services.js';

/**
 * A request's flow context: the tenant's flow policy, the state read from its conversation at point [A], and the
 * keyed hash both share. Kept beside the request (a WeakMap, gone with it) so point [B] of every API finds it.
 */

export type FlowApi = 'chat' | 'responses' | 'messages' | 'mcp';

export interface FlowContext {
  api: FlowApi;
  tenantId: string;
  policy: FlowPolicy;
  allowDomains: readonly string[];
  /** The conversation's flow state: read from the request, or restored from storage and extended. */
  state: FlowState;
  hash: Hasher;
  /** The tenant's detection settings, for the corrections of src/flows/typed-values.ts. */
  detection: DetectionPolicy;
}

const contexts = new WeakMap<FastifyRequest, FlowContext>();

/** Builds the request's flow context (tenant policy, fresh state) and lets `read` fill the state from the conversation. */
export async function attachFlows(request: FastifyRequest, api: FlowApi, read: (ctx: FlowContext) => void | Promise<void>): Promise<FlowContext | undefined> {
  const tenantId = request.principal?.tenantId;
  if (tenantId === undefined) return undefined;
  const ctx = await newFlowContext(request.server.services, tenantId, api);
  if (!ctx) return undefined;
  await read(ctx);
  contexts.set(request, ctx);
  await recordLinkedConversation(request, tenantId, ctx.state);
  return ctx;
}

export const flowContext = (request: FastifyRequest): FlowContext | undefined => contexts.get(request);

/** The tenant's flow policy and the gateway's hash, with an empty state (a caller that restores its own state). */
export async function newFlowContext(services: Services, tenantId: string, api: FlowApi): Promise<FlowContext | undefined> {
  const policy = await tenantPolicies(services).get(tenantId);
  const flows = policy.flows ?? DEFAULT_FLOW_POLICY;
  if (!flows.enabled) return undefined;
  const hash = flowHasher(services);
  const detection = { strict: policy.strict, categoryActions: policy.categoryActions, secretMode: policy.secretMode };
  return { api, tenantId, policy: flows, allowDomains: policy.allowDomains, state: new FlowState(hash), hash, detection };
}
