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
