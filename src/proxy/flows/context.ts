import { hkdfSync, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { FlowState } from '../../flows/state.js';
import type { DetectionPolicy } from '../../flows/typed-values.js';
import { DEFAULT_FLOW_POLICY, type FlowPolicy } from '../../flows/types.js';
import { hasher, type Hasher } from '../../flows/values.js';
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
const hashers = new WeakMap<object, Hasher>();
const HASH_LABEL = 'bastion/flow-value-hash/v1';

/**
 * One hash key per gateway: derived from BASTION_MASTER_KEY (the same on every replica and across restarts, so stored
 * states match), else random per process (a state stored by another process then matches no value: its sources
 * still count as seen and destinations read as unknown, so the decision only refuses more).
 */
export function flowHasher(services: Pick<Services, 'config'>): Hasher {
  let h = hashers.get(services);
  if (!h) {
    const master = services.config.masterKey;
    const key = master ? Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), HASH_LABEL, 32)) : randomBytes(32);
    hashers.set(services, (h = hasher(key)));
  }
  return h;
}

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
