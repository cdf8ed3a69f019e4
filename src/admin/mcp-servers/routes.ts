import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { BastionError, RequestValidationError } from '../../errors.js';
import { mcpRegistry } from '../../mcp/proxy/registry-cache.js';
import { checkUpstreamUrl } from '../../mcp/proxy/upstream-url.js';
import { credentialHeaderFit } from '../../mcp/proxy/credential-header.js';
import { pointsAtGateway } from '../../mcp/proxy/own-listeners.js';
import { diffDefinitions } from '../../mcp/proxy/tool-pins.js';
import { approvePending, listPins, type PinRow } from '../../storage/mcp-pins.js';
import { deleteMcpServer, findMcpServer, listMcpServers, putMcpServer, type McpServerRow } from '../../storage/mcp-servers.js';
import { apiKeyAuth, scopedTenant } from '../api-key-auth.js';
import { Forbidden } from '../financial/schemas.js';
import { withheldTools, type Withheld } from './withheld-tools.js';
import { ApproveBody, PinnedTool, PinnedTools, Server, ServerBody, ServerList, ServerParams, TenantQuery, ToolParams } from './schemas.js';

const config = { security: 'apiKey', rateLimited: true, portalBearer: true } as const;
type TenantQ = { Querystring: Static<typeof TenantQuery> };
const NotFound = { description: 'MCP_SERVER_NOT_FOUND' };

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const parseOrNull = (text: string | null): Record<string, unknown> | null => (text === null ? null : (JSON.parse(text) as Record<string, unknown>));

export function wireServer(row: McpServerRow): Static<typeof Server> {
  return {
    name: row.name,
    url: row.url,
    has_credential: row.sealed_credential !== null,
    credential_header: row.credential_header,
    allowed_tools: row.allowed_tools === null ? null : (JSON.parse(row.allowed_tools) as string[]),
    new_tools: row.new_tools,
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}

export function wirePin(pin: PinRow, withheld?: Withheld): Static<typeof PinnedTool> {
  const status = pin.pending_hash !== null ? (pin.approved_hash === null ? 'new' : 'changed') : withheld ? 'withheld' : 'approved';
  return {
    tool: pin.tool_name,
    status,
    ...(withheld && pin.pending_hash === null ? { withheld_reason: withheld.reason, findings: withheld.findings } : {}),
    approved_hash: pin.approved_hash,
    pending_hash: pin.pending_hash,
    pending_since: iso(pin.pending_since),
    approved: parseOrNull(pin.approved_definition),
    pending: parseOrNull(pin.pending_definition),
    diff: pin.pending_hash === null ? [] : diffDefinitions(pin.approved_definition, pin.pending_definition),
  };
}

/**
 * The MCP proxy's registry on the admin listener (X-API-Key or the console's bearer, tenant-scoped): register, list
 * and remove upstream servers; see the pinned tools and the pending changes with their diff; approve a change.
 */
export async function mcpServerRoutes(app: FastifyInstance): Promise<void> {
  await app.register(apiKeyAuth);
  const { storage, config: settings } = app.services;
  const existing = async (tenantId: string, name: string) => {
    const row = await findMcpServer(storage.db, tenantId, name);
    if (!row) throw new BastionError('MCP_SERVER_NOT_FOUND');
    return row;
  };

  app.get<TenantQ>('', { config, schema: { summary: "The tenant's registered upstream MCP servers (credentials are never returned)", querystring: TenantQuery, response: { 200: ServerList, 403: Forbidden } } }, async (request) => {
    return (await listMcpServers(storage.db, scopedTenant(request, request.query.tenant_id))).map(wireServer);
  });

  app.put<TenantQ & { Params: Static<typeof ServerParams>; Body: Static<typeof ServerBody> }>(
    '/:name',
    { config, schema: { summary: 'Register or replace an upstream MCP server (a new URL forgets its pinned tools)', querystring: TenantQuery, params: ServerParams, body: ServerBody, response: { 200: Server, 201: Server, 403: Forbidden } } },
    async (request, reply) => {
      const tenantId = scopedTenant(request, request.query.tenant_id);
      const refusal = pointsAtGateway(request.body.url, app.services) ? 'gateway_itself' : checkUpstreamUrl(request.body.url, settings.mcpPrivateUpstreams);
      if (refusal) throw new RequestValidationError([{ loc: ['body', 'url'], msg: `upstream URL refused: ${refusal.replace(/_/g, ' ')}${refusal === 'private' ? ' (allowed by BASTION_MCP_PRIVATE_UPSTREAMS=true)' : ''}`, type: `value_error.url.${refusal}` }]);
      const header = request.body.credential_header;
      if (header !== undefined && !credentialHeaderFit(header)) throw new RequestValidationError([{ loc: ['body', 'credential_header'], msg: 'not a header that may carry a credential (hop-by-hop, framing, Host, forwarding and MCP protocol headers are refused): use e.g. authorization or x-api-key', type: 'value_error.credential_header' }]);
      if (request.body.credential !== undefined && !settings.masterKey) throw new BastionError('MCP_CREDENTIAL_NEEDS_MASTER_KEY');
      const { row, created } = await putMcpServer(storage.db, settings.masterKey, tenantId, request.params.name, {
        url: request.body.url,
        ...(request.body.credential !== undefined ? { credential: request.body.credential } : {}),
        ...(request.body.credential_header !== undefined ? { credentialHeader: request.body.credential_header } : {}),
        allowedTools: request.body.allowed_tools ?? null,
        newTools: request.body.new_tools ?? 'auto',
      });
      await mcpRegistry(app.services).changed(tenantId);
      return reply.code(created ? 201 : 200).send(wireServer(row));
    },
  );

  app.delete<TenantQ & { Params: Static<typeof ServerParams> }>(
    '/:name',
    { config, schema: { summary: 'Remove an upstream MCP server and its pinned tools', querystring: TenantQuery, params: ServerParams, response: { 204: { description: 'Removed', type: 'null' }, 403: Forbidden, 404: NotFound } } },
    async (request, reply) => {
      const tenantId = scopedTenant(request, request.query.tenant_id);
      if (!(await deleteMcpServer(storage.db, tenantId, request.params.name))) throw new BastionError('MCP_SERVER_NOT_FOUND');
      await mcpRegistry(app.services).changed(tenantId);
      return reply.code(204).send();
    },
  );

  app.get<TenantQ & { Params: Static<typeof ServerParams> }>(
    '/:name/tools',
    { config, schema: { summary: "A server's pinned tools: approved definitions and pending changes with their diff", querystring: TenantQuery, params: ServerParams, response: { 200: PinnedTools, 403: Forbidden, 404: NotFound } } },
    async (request) => {
      const tenantId = scopedTenant(request, request.query.tenant_id);
      const server = await existing(tenantId, request.params.name);
      const pins = await listPins(storage.db, tenantId, request.params.name);
      const withheld = await withheldTools(request, tenantId, server, pins);
      return pins.map((pin) => wirePin(pin, withheld.get(pin.tool_name)));
    },
  );

  app.post<TenantQ & { Params: Static<typeof ToolParams>; Body: Static<typeof ApproveBody> }>(
    '/:name/tools/:tool/approve',
    { config, schema: { summary: 'Approve the pending version of a tool (agents see and may call it from the next request)', querystring: TenantQuery, params: ToolParams, body: ApproveBody, response: { 200: PinnedTool, 403: Forbidden, 404: NotFound, 409: { description: 'MCP_TOOL_NOT_PENDING' } } } },
    async (request) => {
      const tenantId = scopedTenant(request, request.query.tenant_id);
      await existing(tenantId, request.params.name);
      if (!(await approvePending(storage.db, tenantId, request.params.name, request.params.tool, request.body.hash))) throw new BastionError('MCP_TOOL_NOT_PENDING');
      await mcpRegistry(app.services).changed(tenantId);
      request.log.info({ event: 'mcp_tool_approved', server: request.params.name, tool: request.params.tool, hash: request.body.hash }, 'MCP tool version approved');
      const pin = (await listPins(storage.db, tenantId, request.params.name)).find((p) => p.tool_name === request.params.tool)!;
      return wirePin(pin);
    },
  );
}
