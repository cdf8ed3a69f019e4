import { Type } from 'typebox';
import { KINDS, LAYER_NAMES, ROLES } from '../../inspect/types.js';
import { SECTORS } from '../../neutralizer/catalogue.js';

/** Wire shapes of /threat/neutralizer/* (SPEC §4.6). */

export const Sector = Type.Enum([...SECTORS], { description: 'B2B, B2C or E-Commerce' });
export const MatrixQuery = Type.Object({ sector: Type.Optional(Sector) }, { additionalProperties: false });
export const FamilyParams = Type.Object({ threat_id: Type.String({ pattern: '^[a-z0-9-]{1,64}$' }) });

export const AssessBody = Type.Object(
  {
    text: Type.Optional(Type.String({ maxLength: 16 * 1024 * 1024, description: 'Text to screen through the real pipeline, same bounds as POST /filter (BASTION_CONTENT_LIMIT bytes; 413 beyond). Counts toward the monthly quota like /filter.' })),
    kind: Type.Optional(Type.Enum([...KINDS], { description: 'What the text is (as /filter)' })),
    role: Type.Optional(Type.Enum([...ROLES])),
    signals: Type.Optional(
      Type.Array(
        Type.Object(
          {
            layer: Type.Enum([...LAYER_NAMES]),
            type: Type.String({ pattern: '^[a-z0-9_]{1,64}$', description: 'A flag type as verdicts report it' }),
            score: Type.Optional(Type.Number({ minimum: 0, maximum: 1, default: 1 })),
          },
          { additionalProperties: false },
        ),
        { maxItems: 64, description: 'Signals already observed (e.g. from earlier verdicts)' },
      ),
    ),
    sector: Type.Optional(Sector),
  },
  { additionalProperties: false },
);

const Obj = Type.Object({}, { additionalProperties: true });
export const SectorList = Type.Array(Type.Object({ sector: Type.String(), threat_count: Type.Integer() }));
export const Matrix = Type.Array(
  Type.Object({
    threat_id: Type.String(),
    name: Type.String(),
    severity: Type.String(),
    sectors: Type.Array(Type.String()),
    owasp: Type.Array(Type.String()),
    atlas: Type.Array(Type.String()),
    controls: Type.Array(Type.Object({ control_id: Type.String(), level: Type.String(), enforced_by_bastion: Type.Boolean() })),
  }),
);
const Control = Type.Object({ control_id: Type.String(), level: Type.String(), name: Type.String(), guidance: Type.String(), enforced_by_bastion: Type.Boolean() });
export const FamilyRecord = Type.Object({
  threat_id: Type.String(),
  name: Type.String(),
  sectors: Type.Array(Type.String()),
  severity: Type.String(),
  description: Type.String(),
  owasp: Type.Array(Type.String()),
  atlas: Type.Array(Type.String()),
  signals: Type.Array(Type.Object({ layer: Type.String(), type: Type.String({ description: "'*' = any flag type of the layer" }), weight: Type.Number() })),
  controls: Type.Array(Control),
  references: Type.Array(Type.String()),
});
export const Hierarchy = Type.Object({
  levels: Type.Array(
    Type.Object({ level: Type.String(), rank: Type.Integer(), effectiveness: Type.String(), guidance: Type.String(), controls: Type.Array(Control) }),
  ),
});
export const AssessReport = Type.Object({
  sector: Type.Union([Type.String(), Type.Null()]),
  verdict: Type.Union([Type.Object({ allowed: Type.Boolean(), risk_level: Type.String(), action: Type.String(), request_id: Type.String() }), Type.Null()]),
  observed: Type.Array(Type.Object({ layer: Type.String(), type: Type.String(), score: Type.Number(), origin: Type.String() })),
  families: Type.Array(
    Type.Object({
      threat_id: Type.String(),
      name: Type.String(),
      severity: Type.String(),
      confidence: Type.Number(),
      contributions: Type.Array(Obj),
      residual_risk: Type.Number(),
    }),
  ),
  controls: Type.Array(
    Type.Object({
      control_id: Type.String(),
      level: Type.String(),
      name: Type.String(),
      guidance: Type.String(),
      effectiveness: Type.String(),
      enforced_by_bastion: Type.Boolean(),
      mitigates: Type.Array(Type.String()),
    }),
  ),
  residual_risk: Type.Object({ score: Type.Number(), rating: Type.String() }),
  method: Type.String(),
});
