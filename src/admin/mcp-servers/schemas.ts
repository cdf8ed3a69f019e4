import { Type } from 'typebox';
import { TenantQuery } from '../agents/schemas.js';

/** Wire shapes of the MCP proxy's admin routes (/mcp/servers on the admin listener). Every field bounded. */
export { TenantQuery };

const Name = Type.String({ pattern: '^[A-Za-z0-9_.-]{1,64}$', description: 'The name agents use in /mcp/servers/{name} on the data plane' });
const ToolName = Type.String({ minLength: 1, maxLength: 128, pattern: '^[^\\u0000-\\u001f\\u007f]+$' });
export const ServerParams = Type.Object({ name: Name }, { additionalProperties: false });
export const ToolParams = Type.Object({ name: Name, tool: ToolName }, { additionalProperties: false });

export const ServerBody = Type.Object(
  {
    url: Type.String({ minLength: 8, maxLength: 2048, description: 'The upstream Streamable HTTP MCP endpoint (http or https), or stdio://NAME for a local server run by `bastion mcp wrap`. Link-local and metadata addresses are refused; loopback and private ones unless BASTION_MCP_PRIVATE_UPSTREAMS' }),
    credential: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, pattern: '^[^\\r\\n]+$', description: 'Sent upstream as the value of credential_header (e.g. "Bearer …"); stored sealed under BASTION_MASTER_KEY, never returned. Omitted on a replacement: the stored one is kept' })),
    credential_header: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9-]{1,64}$', description: 'The header the credential is sent under (default authorization). Hop-by-hop, framing, Host, forwarding and MCP protocol headers are refused (config/mcp-credential-headers.json)' })),
    allowed_tools: Type.Optional(Type.Union([Type.Array(ToolName, { maxItems: 1000 }), Type.Null()], { description: 'Only these tools are shown and callable; null or omitted: all' })),
    new_tools: Type.Optional(Type.Union([Type.Literal('auto'), Type.Literal('review')], { description: 'auto (default): a tool first listed after the first list is pinned at once; review: it waits for approval. A changed tool always waits' })),
  },
  { additionalProperties: false },
);

export const Server = Type.Object({
  name: Type.String(),
  url: Type.String(),
  has_credential: Type.Boolean(),
  credential_header: Type.Union([Type.String(), Type.Null()]),
  allowed_tools: Type.Union([Type.Array(Type.String()), Type.Null()]),
  new_tools: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});
export const ServerList = Type.Array(Server);

const Definition = Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]);
export const PinnedTool = Type.Object({
  tool: Type.String(),
  status: Type.Union([Type.Literal('approved'), Type.Literal('changed'), Type.Literal('new'), Type.Literal('withheld')], { description: 'changed/new: a pending version waits for approval (withheld from agents); withheld: approved, but agents never see it (withheld_reason)' }),
  withheld_reason: Type.Optional(Type.Union([Type.Literal('definition_blocked'), Type.Literal('not_allowed')], { description: 'definition_blocked: the description carries instructions to the model; not_allowed: outside the allow-list' })),
  findings: Type.Optional(Type.Array(Type.Object({ field: Type.String(), category: Type.String(), detail: Type.String() }), { description: 'What the definition guard found (field names and categories, never the text)' })),
  approved_hash: Type.Union([Type.String(), Type.Null()]),
  pending_hash: Type.Union([Type.String(), Type.Null()]),
  pending_since: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  approved: Definition,
  pending: Definition,
  diff: Type.Array(Type.Object({ field: Type.String(), before: Type.Unknown(), after: Type.Unknown() }), { description: 'What the pending version changes, field by field (input-schema properties one by one)' }),
});
export const PinnedTools = Type.Array(PinnedTool);
export const ApproveBody = Type.Object({ hash: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'The pending_hash you reviewed: a newer change made meanwhile is not approved' }) }, { additionalProperties: false });
