import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import { BastionError } from '../../errors.js';
import { APPROVAL_TTL_MS } from '../../proxy/flows/call-guard.js';
import type { FlowViolation } from '../../flows/types.js';
import { decisionSummary } from '../../proxy/flows/refusal-words.js';
import { listFlowDecisions, openDestinations, settleApproval, type FlowDecisionRow } from '../../storage/flows.js';
import { apiKeyAuth, scopedTenant } from '../api-key-auth.js';
import { Forbidden } from '../financial/schemas.js';
import { Decision, DecisionList, DecisionParams, DecisionQuery, TenantQuery } from './schemas.js';

const config = { security: 'apiKey', rateLimited: true, portalBearer: true } as const;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * A decision on the wire. With the master key, a call waiting for approval also says where its data would go (the
 * destination values and the MCP server, opened from their seal); `summary` says it in plain words.
 */
export function wireDecision(row: FlowDecisionRow, masterKey?: Buffer): Static<typeof Decision> {
  const detail = JSON.parse(row.detail) as Pick<Static<typeof Decision>, 'tainted_by' | 'tainted_fields' | 'unknown_destinations'>;
  const destinations = openDestinations(row, masterKey);
  const refusal = { flow: row.flow as FlowViolation, sink: row.sink, tainted_by: detail.tainted_by ?? [], tainted_fields: detail.tainted_fields ?? [], unknown_destinations: detail.unknown_destinations ?? [] };
  return {
    summary: decisionSummary(row.tool, refusal, destinations),
    server: destinations?.server ?? null,
    destinations: destinations?.values ?? null,
    id: row.id,
    api: row.api,
    tool: row.tool,
    flow: row.flow,
    sink: row.sink,
    action: row.action,
    status: row.status,
    tainted_by: detail.tainted_by ?? [],
    tainted_fields: detail.tainted_fields ?? [],
    unknown_destinations: detail.unknown_destinations ?? [],
    request_id: row.request_id,
    created_at: iso(Number(row.created_at))!,
    expires_at: iso(Number(row.expires_at))!,
    decided_at: iso(row.decided_at === null ? null : Number(row.decided_at)),
    decided_by: row.decided_by,
  };
}

/** Who decided: the console account, or the API key. */
const decider = (request: FastifyRequest): string => (request.portal ? `account:${request.portal.accountId}` : `key:${request.principal?.keyId ?? 'unknown'}`);

/**
 * Agent flow decisions on the admin listener (X-API-Key or the console's bearer, tenant-scoped): the calls the flow
 * policy refused, flagged or withholds for approval, and the approval itself. An approved call is released once,
 * when the app retries it (same tool, same arguments) within the approval's lifetime.
 */
export async function flowRoutes(app: FastifyInstance): Promise<void> {
  await app.register(apiKeyAuth);
  const { storage } = app.services;

  app.get<{ Querystring: Static<typeof DecisionQuery> }>(
    '/decisions',
    { config, schema: { summary: 'Flow decisions of the tenant, newest first: refusals, flags and approvals (metadata only: tool names, fields, never values)', querystring: DecisionQuery, response: { 200: DecisionList, 403: Forbidden } } },
    async (request) => {
      const tenantId = scopedTenant(request, request.query.tenant_id);
      return (await listFlowDecisions(storage.db, tenantId, { status: request.query.status, limit: request.query.limit ?? 100 })).map((row) => wireDecision(row, app.services.config.masterKey));
    },
  );

  for (const verb of ['approve', 'deny'] as const) {
    app.post<{ Querystring: Static<typeof TenantQuery>; Params: Static<typeof DecisionParams> }>(
      `/decisions/:id/${verb}`,
      {
        config,
        schema: {
          summary: verb === 'approve' ? 'Approve a withheld call: the app\'s next identical call is released once (within 24 hours)' : 'Deny a withheld call: it stays refused',
          querystring: TenantQuery,
          params: DecisionParams,
          response: { 200: Decision, 403: Forbidden, 404: { description: 'FLOW_DECISION_NOT_FOUND' }, 409: { description: 'FLOW_DECISION_NOT_PENDING' } },
        },
      },
      async (request) => {
        const tenantId = scopedTenant(request, request.query.tenant_id);
        const settled = await settleApproval(storage.db, tenantId, request.params.id, verb === 'approve' ? 'approved' : 'denied', decider(request), APPROVAL_TTL_MS);
        if (!settled) throw new BastionError('FLOW_DECISION_NOT_FOUND');
        if (!settled.changed) throw new BastionError('FLOW_DECISION_NOT_PENDING');
        const { row } = settled;
        request.log.info({ event: `flow_${verb}d`, decision: row.id, tool: row.tool }, 'flow decision settled');
        return wireDecision(row, app.services.config.masterKey);
      },
    );
  }
}
