import { Type } from 'typebox';
import { TenantQuery } from '../agents/schemas.js';

/** Wire shapes of the flow decision routes (/flows on the admin listener). Every field bounded; metadata only. */
export { TenantQuery };

export const DecisionParams = Type.Object({ id: Type.String({ pattern: '^flow_[0-9a-f]{24}$' }) }, { additionalProperties: false });

export const DecisionQuery = Type.Object(
  {
    tenant_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    status: Type.Optional(Type.Union(['refused', 'flagged', 'pending', 'approved', 'denied', 'used'].map((s) => Type.Literal(s)), { description: 'Only decisions in this status' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
  },
  { additionalProperties: false },
);

export const Decision = Type.Object({
  id: Type.String(),
  summary: Type.String({ description: 'The decision in plain words: what the call would do, why nobody chose it, and (when kept) where its data would go' }),
  server: Type.Union([Type.String(), Type.Null()], { description: 'The MCP server the call was for; null when not kept (see destinations) or not an MCP call' }),
  destinations: Type.Union([Type.Array(Type.Object({ field: Type.String(), value: Type.String() })), Type.Null()], {
    description: 'Where a call waiting for approval would send data: each destination field with its value, sealed under BASTION_MASTER_KEY and kept only until the decision is settled (denied, or the approval used); null otherwise or without a master key',
  }),
  api: Type.String({ description: 'chat | responses | messages | mcp' }),
  tool: Type.String(),
  flow: Type.String({ description: 'untrusted_to_sink | private_to_sink' }),
  sink: Type.String({ description: 'Why the call sends data out: label, name, or the effect read from its arguments' }),
  action: Type.String({ description: "The tenant policy's action: block | require_approval | flag" }),
  status: Type.String({ description: 'refused | flagged | pending | approved | denied | used' }),
  tainted_by: Type.Array(Type.Object({ tool: Type.String(), call_id: Type.Optional(Type.String()) })),
  tainted_fields: Type.Array(Type.String()),
  unknown_destinations: Type.Array(Type.String()),
  request_id: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  expires_at: Type.String({ format: 'date-time' }),
  decided_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  decided_by: Type.Union([Type.String(), Type.Null()]),
});
export const DecisionList = Type.Array(Decision);
