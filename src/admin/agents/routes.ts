import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { storedLimits, wireAgent } from '../../agents/agent.js';
import { ed25519FromDid } from '../../agents/did-key.js';
import { registrationSigningInput } from '../../agents/registration-proof.js';
import { BastionError, RequestValidationError, type ErrorName } from '../../errors.js';
import { refuseSpoofingName } from '../../http/display-name.js';
import { verifiesFromDid } from '../../payments/signatures.js';
import { activityKeyOf, listActivity } from '../../storage/agent-activity.js';
import { issueChallenge } from '../../storage/agent-challenges.js';
import { createAgent, findAgent, listAgents, revokeAgent, revokeAllAgents, updateAgent } from '../../storage/agents.js';
import { apiKeyAuth, scopedTenant } from '../api-key-auth.js';
import { Forbidden } from '../financial/schemas.js';
import { ActivityList, ActivityQuery, Agent, AgentList, AgentParams, ChallengeBody, ChallengeResponse, NotFound, RegisterBody, RegisterRefusals, RevokeAllResponse, TenantQuery, UpdateBody } from './schemas.js';

const config = { security: 'apiKey', rateLimited: true, portalBearer: true } as const;
type TenantQ = { Querystring: Static<typeof TenantQuery> };

function limitsOrThrow(limits: Static<typeof RegisterBody>['limits']) {
  const stored = storedLimits(limits, Date.now());
  if (Array.isArray(stored)) throw new RequestValidationError(stored);
  return stored;
}

const CREATE_REFUSALS: Record<'proof_invalid' | 'did_taken' | 'tenant_full', ErrorName> = { proof_invalid: 'AGENT_PROOF_INVALID', did_taken: 'AGENT_DID_TAKEN', tenant_full: 'AGENT_LIMIT_REACHED' };

function didOrThrow(did: string, loc: string[]): void {
  if (!ed25519FromDid(did)) throw new RequestValidationError([{ loc, msg: 'must be an Ed25519 did:key (multicodec 0xed01 and a 32-byte key)', type: 'value_error.did_key' }]);
}

/**
 * Agents (SPEC §4.5) on the admin listener: X-API-Key (or the account's portal bearer token), tenant-scoped. Every
 * request reads the agent from the database (no cache), so a revocation holds on every replica from the next request.
 * Each change is written with its keyed, hash-chained activity record in one transaction (src/storage/agents.ts).
 * Registering proves possession of the DID's key over a challenge bound to the tenant; revoking (DELETE, revoke-all)
 * needs no add-on (config/plans.json), so an owner can always stop its agents.
 */
export async function agentRoutes(app: FastifyInstance): Promise<void> {
  await app.register(apiKeyAuth);
  const { storage } = app.services;

  app.get<TenantQ>('', { config, schema: { summary: "The tenant's registered agents (active and revoked)", querystring: TenantQuery, response: { 200: AgentList, 403: Forbidden } } }, async (request) => {
    const tenantId = scopedTenant(request, request.query.tenant_id);
    return (await listAgents(storage.db, tenantId)).map(wireAgent);
  });

  app.post<TenantQ & { Body: Static<typeof ChallengeBody> }>(
    '/challenge',
    {
      config,
      schema: {
        summary: 'A registration challenge for a did:key: sign signing_input with its key and send it in POST /agents within 5 minutes',
        querystring: TenantQuery,
        body: ChallengeBody,
        response: { 201: ChallengeResponse, 403: Forbidden, 429: { description: 'AGENT_CHALLENGES_OUTSTANDING: 100 unused challenges already; or the key window' } },
      },
    },
    async (request, reply) => {
      const tenantId = scopedTenant(request, request.query.tenant_id);
      didOrThrow(request.body.did, ['body', 'did']);
      const issued = await issueChallenge(storage.db, tenantId, request.body.did);
      if (!issued) throw new BastionError('AGENT_CHALLENGES_OUTSTANDING');
      const fields = { challenge: issued.challenge, did: request.body.did, tenant_id: tenantId };
      return reply.code(201).send({ ...fields, expires_at: new Date(issued.expiresAt).toISOString(), signing_input: registrationSigningInput(fields) });
    },
  );

  app.post<TenantQ & { Body: Static<typeof RegisterBody> }>(
    '',
    {
      config,
      schema: {
        summary: 'Register an agent: did:key public key, spend limits and the proof that the caller holds the key',
        description: 'proof.signature: compact EdDSA JWS by the did:key, payload exactly the signing_input of a challenge from POST /agents/challenge issued to this tenant for this DID. The challenge is spent by the registration.',
        querystring: TenantQuery,
        body: RegisterBody,
        response: { 201: Agent, ...RegisterRefusals },
      },
    },
    async (request, reply) => {
      const tenantId = scopedTenant(request, request.query.tenant_id);
      const body = request.body;
      didOrThrow(body.did, ['body', 'did']);
      refuseSpoofingName(body.display_name);
      const limits = limitsOrThrow(body.limits);
      activityKeyOf(storage); // 503 without a master key, before the challenge is spent
      const signed = registrationSigningInput({ challenge: body.proof.challenge, did: body.did, tenant_id: tenantId });
      if (!(await verifiesFromDid(body.proof.signature, body.did, signed))) throw new BastionError('AGENT_PROOF_INVALID');
      const outcome = await createAgent(storage, { tenantId, displayName: body.display_name, did: body.did, limits, challenge: body.proof.challenge });
      if ('refused' in outcome) throw new BastionError(CREATE_REFUSALS[outcome.refused]);
      return reply.code(201).send(wireAgent(outcome.agent));
    },
  );

  app.get<{ Querystring: Static<typeof ActivityQuery> }>(
    '/activity',
    { config, schema: { summary: "The tenant's hash-chained activity log, newest first (metadata only)", querystring: ActivityQuery, response: { 200: ActivityList, 403: Forbidden, 404: NotFound } } },
    async (request) => {
      const tenantId = scopedTenant(request, request.query.tenant_id);
      // Agents are never deleted (revoked ones stay), so an agent_id that is not the tenant's is unknown: 404 as elsewhere.
      if (request.query.agent_id !== undefined && !(await findAgent(storage.db, tenantId, request.query.agent_id))) throw new BastionError('AGENT_NOT_FOUND');
      const records = await listActivity(storage.db, tenantId, { agentId: request.query.agent_id, limit: request.query.limit ?? 100 });
      return records.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() }));
    },
  );

  app.post<TenantQ>('/revoke-all', { config, schema: { summary: 'Revoke every active agent of the tenant (final); needs no add-on, so it works after the add-on lapsed', querystring: TenantQuery, response: { 200: RevokeAllResponse, 403: Forbidden } } }, async (request) => {
    const tenantId = scopedTenant(request, request.query.tenant_id);
    const ids = await revokeAllAgents(storage, tenantId);
    return { tenant_id: tenantId, revoked: ids.length, agent_ids: ids };
  });

  app.put<TenantQ & { Params: Static<typeof AgentParams>; Body: Static<typeof UpdateBody> }>(
    '/:agent_id',
    { config, schema: { summary: "Change an active agent's display name and/or limits (the whole limits object)", querystring: TenantQuery, params: AgentParams, body: UpdateBody, response: { 200: Agent, 400: RegisterRefusals[400], 403: Forbidden, 404: NotFound } } },
    async (request) => {
      const tenantId = scopedTenant(request, request.query.tenant_id);
      refuseSpoofingName(request.body.display_name);
      const limits = request.body.limits ? limitsOrThrow(request.body.limits) : undefined;
      const outcome = await updateAgent(storage, tenantId, request.params.agent_id, { displayName: request.body.display_name, limits });
      if ('refused' in outcome) throw new BastionError(outcome.refused === 'not_found' ? 'AGENT_NOT_FOUND' : 'AGENT_REVOKED');
      return wireAgent(outcome.agent);
    },
  );

  app.delete<TenantQ & { Params: Static<typeof AgentParams> }>(
    '/:agent_id',
    { config, schema: { summary: 'Revoke one agent: final, effective from the next request on every replica; needs no add-on', querystring: TenantQuery, params: AgentParams, response: { 200: Agent, 403: Forbidden, 404: NotFound } } },
    async (request) => {
      const tenantId = scopedTenant(request, request.query.tenant_id);
      const agent = await revokeAgent(storage, tenantId, request.params.agent_id);
      if (!agent) throw new BastionError('AGENT_NOT_FOUND');
      return wireAgent(agent);
    },
  );

}
