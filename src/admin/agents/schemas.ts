import { Type } from 'typebox';
import { DID_KEY_PATTERN } from '../../agents/did-key.js';
import { CURRENCY_CODES, DECIMAL_PATTERN } from '../../agents/money.js';

/** Wire shapes of /agents/* (SPEC §4.5, issue 12). Every field bounded; anything else → 422. */

export const TenantQuery = Type.Object(
  { tenant_id: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_.-]{1,64}$', description: "Omitted: read as the credential's own tenant (which is `default` on a single-tenant deployment); naming any other tenant → 403" })) },
  { additionalProperties: false },
);
export const AgentParams = Type.Object({ agent_id: Type.String({ pattern: '^agt_[A-Za-z0-9_-]{22}$', description: 'From POST /agents' }) }, { additionalProperties: false });
export const ActivityQuery = Type.Object(
  {
    tenant_id: TenantQuery.properties.tenant_id,
    agent_id: Type.Optional(AgentParams.properties.agent_id),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: 'Newest records first, 1 to 1000' })),
  },
  { additionalProperties: false },
);

const Amount = Type.String({ pattern: DECIMAL_PATTERN, maxLength: 15, description: 'Decimal string in the currency (at most its minor-unit digits), e.g. "12.50". Never a number' });
export const Limits = Type.Object(
  {
    currency: Type.Enum([...CURRENCY_CODES], { description: 'ISO 4217 code, from config/agent-prices.json' }),
    per_transaction: Amount,
    daily: Amount,
    monthly: Amount,
    allowed_payees: Type.Array(Type.String({ pattern: '^[A-Za-z0-9_.:-]{1,64}$' }), {
      minItems: 1,
      maxItems: 50,
      description: 'Payees (e.g. `bastion:tools`) or catalogue items (e.g. `tool:filter`) this agent may pay; anything else is refused',
    }),
    expires_at: Type.Optional(Type.Union([Type.String({ format: 'date-time', maxLength: 40 }), Type.Null()], { description: 'After this instant quotes and mandates are refused' })),
  },
  { additionalProperties: false, description: 'per_transaction ≤ daily ≤ monthly (else 422)' },
);
const DisplayName = Type.String({
  minLength: 1,
  maxLength: 128,
  pattern: '^[^\\u0000-\\u001f\\u007f]+$',
  description: 'Shown in the console and the activity log. Bidi override/isolate controls (U+202A–U+202E, U+2066–U+2069) and unpaired surrogates → 400 DISPLAY_NAME_INVALID',
});
const Did = Type.String({ pattern: DID_KEY_PATTERN, maxLength: 128, description: "The agent's Ed25519 public key as did:key (multicodec 0xed01 + 32 bytes, base58btc). The gateway never sees the private key" });
const Challenge = Type.String({ pattern: '^[A-Za-z0-9_-]{43}$', description: 'From POST /agents/challenge' });
export const ChallengeBody = Type.Object({ did: Did }, { additionalProperties: false });
export const ChallengeResponse = Type.Object({
  challenge: Challenge,
  did: Type.String(),
  tenant_id: Type.String(),
  expires_at: Type.String({ format: 'date-time', description: '5 minutes from now; one registration only' }),
  signing_input: Type.String({ description: 'The exact bytes to sign (RFC 8785 canonical JSON of challenge, did, purpose `bastion:agent-registration`, tenant_id)' }),
});
export const RegisterBody = Type.Object(
  {
    display_name: DisplayName,
    did: Did,
    limits: Limits,
    proof: Type.Object(
      {
        challenge: Challenge,
        signature: Type.String({ maxLength: 1024, pattern: '^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$', description: 'Compact JWS, alg EdDSA, by the key the did:key encodes, whose payload is exactly signing_input' }),
      },
      { additionalProperties: false, description: 'Proof that the caller holds the private key of `did`: without it anyone could claim any DID' },
    ),
  },
  { additionalProperties: false },
);
export const UpdateBody = Type.Object({ display_name: Type.Optional(DisplayName), limits: Type.Optional(Limits) }, { additionalProperties: false, minProperties: 1 });

const WireLimits = Type.Object({
  currency: Type.String(),
  per_transaction: Type.String(),
  daily: Type.String(),
  monthly: Type.String(),
  allowed_payees: Type.Array(Type.String()),
  expires_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export const Agent = Type.Object({
  agent_id: Type.String(),
  tenant_id: Type.String(),
  display_name: Type.String(),
  did: Type.String(),
  status: Type.Union([Type.Literal('active'), Type.Literal('revoked')]),
  limits: WireLimits,
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  revoked_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export const AgentList = Type.Array(Agent);
export const RevokeAllResponse = Type.Object({ tenant_id: Type.String(), revoked: Type.Integer({ description: 'How many active agents were revoked' }), agent_ids: Type.Array(Type.String()) });
export const ActivityRecord = Type.Object({
  seq: Type.Integer({ description: 'Position in the tenant chain, from 1' }),
  agent_id: Type.Union([Type.String(), Type.Null()]),
  kind: Type.String({ description: 'agent.registered, agent.limits_changed, agent.revoked, quote.issued, quote.refused, mandate.approved, mandate.refused' }),
  detail: Type.Record(Type.String(), Type.Unknown(), { description: 'Metadata only: ids, amounts, reason codes' }),
  created_at: Type.String({ format: 'date-time' }),
  prev_hash: Type.String({ description: 'The previous record\'s hash; 64 zeros for the first' }),
  hash: Type.String({ description: 'HMAC-SHA-256 (hex) of this record in RFC 8785 canonical form, under a key derived from BASTION_MASTER_KEY (plain SHA-256 for records written before the log was keyed)' }),
});
export const ActivityList = Type.Array(ActivityRecord);
export const NotFound = { description: 'BASTION_ERR_AGENT_NOT_FOUND: unknown agent_id, or one of another tenant' };
export const RegisterRefusals = {
  400: { description: 'BASTION_ERR_DISPLAY_NAME_INVALID: bidi controls or unpaired surrogates in display_name' },
  403: { description: 'BASTION_ERR_AGENT_PROOF_INVALID: the proof does not hold (or TENANT_FORBIDDEN / PLAN_TOO_LOW)' },
  409: { description: 'BASTION_ERR_AGENT_DID_TAKEN: the DID is already an active agent on this gateway; AGENT_LIMIT_REACHED' },
};
