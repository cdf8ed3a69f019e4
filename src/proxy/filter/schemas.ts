import { Type } from 'typebox';
import { KINDS, LAYER_NAMES, RISK_LEVELS, ROLES } from '../../inspect/types.js';

/** Wire shapes of /filter, /filter/batch and /demo/filter (issue 3 fixes the field names). */

const Kind = Type.Enum([...KINDS], { default: 'prompt', description: 'What the content is' });
const Role = Type.Enum([...ROLES], {
  description:
    "Optional provenance. 'system': the content is the app's own system/developer prompt; under the tenant policy system_messages=secrets_only (default) it is scanned for credentials and known-bad patterns and rules, but the injection model alone does not block it. Absent: untrusted text ('user'; 'tool' for kind tool_result).",
});

// Length is enforced in bytes by the handler (413); this bound only keeps Ajv from walking absurd strings.
export const FilterBody = Type.Object(
  {
    content: Type.String({ maxLength: 16 * 1024 * 1024, description: 'Text to inspect' }),
    kind: Type.Optional(Kind),
    role: Type.Optional(Role),
    strict: Type.Optional(Type.Boolean({ description: 'Also block MEDIUM risk' })),
    user: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'End-user id: ERS per tenant + user' })),
  },
  { additionalProperties: false },
);

export const BatchBody = Type.Object(
  {
    items: Type.Array(
      Type.Object({ content: Type.String({ maxLength: 16 * 1024 * 1024 }), kind: Type.Optional(Kind), role: Type.Optional(Role) }, { additionalProperties: false }),
      { minItems: 1, maxItems: 1000 },
    ),
    strict: Type.Optional(Type.Boolean()),
    user: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  },
  { additionalProperties: false },
);

export const DemoBody = Type.Object(
  { content: Type.String({ maxLength: 65536 }), kind: Type.Optional(Kind) },
  { additionalProperties: false },
);

const Flag = Type.Object({
  layer: Type.Union([...LAYER_NAMES, 'model' as const, 'judge' as const].map((l) => Type.Literal(l))),
  type: Type.String(),
  score: Type.Number(),
  detail: Type.Optional(Type.String()),
  category: Type.Optional(Type.String()),
  span: Type.Optional(Type.Object({ start: Type.Integer(), end: Type.Integer() })),
});

export const VerdictResponse = Type.Object({
  request_id: Type.String(),
  allowed: Type.Boolean(),
  risk_level: Type.Union(RISK_LEVELS.map((r) => Type.Literal(r))),
  action: Type.Union([Type.Literal('allow'), Type.Literal('redact'), Type.Literal('block')]),
  redacted_content: Type.String(),
  flags: Type.Array(Flag),
  secrets: Type.Array(Type.Object({ type: Type.String(), start: Type.Integer(), end: Type.Integer() })),
  threat_family: Type.Optional(Type.String()),
  ers: Type.Object({ score: Type.Number(), shadow_banned: Type.Boolean() }),
  timings_ms: Type.Record(Type.String(), Type.Number()),
  layers: Type.Optional(
    Type.Object({
      model: Type.Optional(
        Type.Object({
          id: Type.String(),
          score: Type.Number(),
          threshold: Type.Number(),
          verdict: Type.Union([Type.Literal('attack'), Type.Literal('benign')]),
          effect: Type.Union([Type.Literal('raised'), Type.Literal('cleared'), Type.Literal('none')]),
          windows: Type.Integer(),
          truncated: Type.Boolean(),
        }, { description: "The transformer model's opinion, when the model stage consulted it" }),
      ),
      judge: Type.Optional(
        Type.Object({
          verdict: Type.Union([Type.Literal('attack'), Type.Literal('benign'), Type.Literal('none')]),
          category: Type.Optional(Type.Union([Type.Literal('injection'), Type.Literal('harmful_content')])),
          codes: Type.Optional(Type.Array(Type.String())),
          reason: Type.Optional(Type.String()),
          cached: Type.Boolean(),
        }, { description: "The LLM judge's opinion, when it was asked" }),
      ),
    }),
  ),
});

export const BatchResponse = Type.Object({ results: Type.Array(VerdictResponse) });
