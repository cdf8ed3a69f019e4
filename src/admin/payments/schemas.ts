import { Type } from 'typebox';
import { ITEM_IDS } from '../../payments/catalogue.js';

/** Wire shapes of /mcp/quote and /mcp/mandate/execute (SPEC §4.5, issue 12). Every field bounded; else 422. */

const AgentId = Type.String({ pattern: '^agt_[A-Za-z0-9_-]{22}$', description: 'One of your tenant’s agents' });
const QuoteHash = Type.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256 (hex) of the RFC 8785 canonical quote' });

export const QuoteBody = Type.Object(
  { agent_id: AgentId, item: Type.Enum([...ITEM_IDS], { description: 'An item of the price catalogue (config/agent-prices.json). There is no amount field: the price is never taken from the request' }) },
  { additionalProperties: false },
);
export const Quote = Type.Object({
  quote_id: Type.String(),
  issuer: Type.String(),
  tenant_id: Type.String(),
  agent_id: Type.String(),
  agent_did: Type.String(),
  item: Type.String(),
  payee: Type.String(),
  amount: Type.String({ description: 'Decimal string, from the catalogue' }),
  currency: Type.String(),
  issued_at: Type.String({ format: 'date-time' }),
  expires_at: Type.String({ format: 'date-time', description: 'issued_at + 5 minutes' }),
});
export const QuoteResponse = Type.Object({
  quote: Quote,
  canonical: Type.String({ description: 'The quote in RFC 8785 canonical form: the bytes that are hashed and signed' }),
  quote_hash: QuoteHash,
  signature: Type.String({ description: 'Compact JWS (EdDSA, typ bastion-quote+jws) by the gateway over `canonical`' }),
  signing_key: Type.Object({ kid: Type.String(), jwk: Type.Record(Type.String(), Type.String()) }, { description: "The gateway's public key (OKP Ed25519 JWK)" }),
});

export const MandateBody = Type.Object(
  {
    mandate: Type.Object({ agent_id: AgentId, quote_hash: QuoteHash }, { additionalProperties: false }),
    signature: Type.String({
      maxLength: 1024,
      pattern: '^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$',
      description: "Compact JWS (EdDSA) by the agent's did:key whose payload is exactly the RFC 8785 canonical form of `mandate`",
    }),
  },
  { additionalProperties: false },
);
export const MandateHeaders = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_.:-]{1,128}$', description: 'Same key + same body → the first answer again; same key + another body → 422' })),
});
export const Approval = Type.Object({
  status: Type.Literal('approved'),
  quote_id: Type.String(),
  quote_hash: Type.String(),
  agent_id: Type.String(),
  item: Type.String(),
  payee: Type.String(),
  amount: Type.String(),
  currency: Type.String(),
  executed_at: Type.String({ format: 'date-time' }),
  spent_today: Type.String({ description: 'UTC day total including this payment' }),
  spent_this_month: Type.String({ description: 'UTC calendar month total including this payment' }),
});
const refusal = (codes: string) => ({ description: `Refused (${codes}); an activity record names the reason` });
export const MandateRefusals = {
  402: refusal('CURRENCY_MISMATCH, PAYEE_NOT_ALLOWED, LIMIT_PER_TRANSACTION, LIMIT_DAILY, LIMIT_MONTHLY'),
  403: refusal('AGENT_REVOKED, AGENT_EXPIRED, MANDATE_SIGNATURE_INVALID, QUOTE_AGENT_MISMATCH, or PLAN_TOO_LOW'),
  404: refusal('AGENT_NOT_FOUND, QUOTE_NOT_FOUND'),
  409: refusal('QUOTE_USED, QUOTE_EXPIRED'),
};
export const QuoteRefusals = {
  403: refusal('AGENT_REVOKED, AGENT_EXPIRED, or PLAN_TOO_LOW'),
  404: refusal('AGENT_NOT_FOUND'),
  503: { description: 'SIGNING_KEY_UNAVAILABLE: no BASTION_MASTER_KEY to seal the gateway signing key' },
};
