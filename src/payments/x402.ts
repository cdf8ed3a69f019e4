import { DID_KEY_PATTERN, ed25519FromDid } from '../agents/did-key.js';
import { toDecimal } from '../agents/money.js';
import type { CatalogueItem } from './catalogue.js';
import { jcs } from './quote.js';
import { verifiesFromDid } from './signatures.js';

/**
 * x402 payment proofs as SPEC §5 defines them: `PAYMENT-SIGNATURE` is base64 of a JSON object whose `agent_id` is the
 * payer's did:key. Bastion's scheme (`bastion-did`, network `bastion:ledger`) settles on its own ledger: the agent
 * signs {agent_id, nonce, issued_at, amount, resource} (RFC 8785 canonical JSON, compact EdDSA JWS) with the key its
 * DID encodes, and the amount is charged to the agent's spend limits. Pure: no storage, no network.
 */
export const X402_SCHEME = 'bastion-did';
export const X402_NETWORK = 'bastion:ledger' as const;
/** issued_at may differ from the gateway clock by this much either way (issue 12: ±5 minutes). */
export const X402_FRESHNESS_MS = 5 * 60_000;

export interface X402Payload {
  agent_id: string;
  nonce: string;
  issued_at: string;
  /** Integer minor units of the asset (x402 `amount` convention): the most the agent authorises for this call. */
  amount: string;
  resource: string;
  signature: string;
}

export type X402Refusal = 'X402_SIGNATURE_INVALID' | 'X402_STALE' | 'X402_AMOUNT_INSUFFICIENT' | 'X402_RESOURCE_MISMATCH';

const NONCE = /^[A-Za-z0-9_-]{16,128}$/;
const AMOUNT = /^(0|[1-9][0-9]{0,14})$/;
const DID = new RegExp(DID_KEY_PATTERN);
const JWS = /^[A-Za-z0-9_-]{1,512}\.[A-Za-z0-9_-]{0,4096}\.[A-Za-z0-9_-]{1,512}$/;
const FIELDS = new Set(['agent_id', 'nonce', 'issued_at', 'amount', 'resource', 'signature', 'x402Version']);

/** The resource string a proof must name for a tool: host-independent, so a proxy in front cannot change it. */
export const toolResource = (tool: string) => `urn:bastion:mcp:tool:${tool}`;

/** The decoded header's JSON as a payload, or the name of the first field that is wrong (answered 422). */
export function parseX402Payload(value: unknown): X402Payload | { invalid: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { invalid: 'payload' };
  const v = value as Record<string, unknown>;
  for (const key of Object.keys(v)) if (!FIELDS.has(key)) return { invalid: key };
  if (v.x402Version !== undefined && v.x402Version !== 2) return { invalid: 'x402Version' };
  const str = (key: string, ok: (s: string) => boolean) => typeof v[key] === 'string' && ok(v[key] as string);
  if (!str('agent_id', (s) => DID.test(s))) return { invalid: 'agent_id' };
  if (!str('nonce', (s) => NONCE.test(s))) return { invalid: 'nonce' };
  if (!str('issued_at', (s) => s.length <= 40 && Number.isFinite(Date.parse(s)))) return { invalid: 'issued_at' };
  if (!str('amount', (s) => AMOUNT.test(s))) return { invalid: 'amount' };
  if (!str('resource', (s) => s.length >= 1 && s.length <= 256)) return { invalid: 'resource' };
  if (!str('signature', (s) => JWS.test(s))) return { invalid: 'signature' };
  return { agent_id: v.agent_id, nonce: v.nonce, issued_at: v.issued_at, amount: v.amount, resource: v.resource, signature: v.signature } as X402Payload;
}

/** The bytes the agent signs: every field but the signature, RFC 8785 canonical. */
export const canonicalX402 = (p: X402Payload) => jcs({ agent_id: p.agent_id, nonce: p.nonce, issued_at: p.issued_at, amount: p.amount, resource: p.resource });

/**
 * Checks what needs no storage, cheapest-to-forge first: the signature (by the DID's own key, resolved locally), then
 * freshness, resource and amount. Nonce reuse, the agent's status and its limits are checked by the charge
 * transaction (src/storage/payments.ts).
 */
export async function verifyX402(p: X402Payload, expected: { resource: string; price: number }, now: number): Promise<X402Refusal | undefined> {
  if (!ed25519FromDid(p.agent_id)) return 'X402_SIGNATURE_INVALID';
  if (!(await verifiesFromDid(p.signature, p.agent_id, canonicalX402(p)))) return 'X402_SIGNATURE_INVALID';
  if (Math.abs(now - Date.parse(p.issued_at)) > X402_FRESHNESS_MS) return 'X402_STALE';
  if (p.resource !== expected.resource) return 'X402_RESOURCE_MISMATCH';
  if (Number(p.amount) < expected.price) return 'X402_AMOUNT_INSUFFICIENT';
  return undefined;
}

/** How long a nonce must be remembered: past this instant the same payload is refused as stale anyway. */
export const nonceExpiry = (p: X402Payload) => Date.parse(p.issued_at) + X402_FRESHNESS_MS + 1000;

/** x402 v2 `PaymentRequirements` (the `accepts` entry) for one catalogue item. */
export function x402Requirements(item: CatalogueItem, tool: string, now: number) {
  return {
    scheme: X402_SCHEME,
    network: X402_NETWORK,
    asset: item.currency,
    amount: String(item.amount),
    payTo: item.payee,
    maxTimeoutSeconds: X402_FRESHNESS_MS / 1000,
    extra: {
      item: item.item,
      resource: toolResource(tool),
      amount_decimal: toDecimal(item.amount, item.currency),
      expires_at: new Date(now + X402_FRESHNESS_MS).toISOString(),
      header: 'PAYMENT-SIGNATURE',
      signs: 'compact EdDSA JWS, by the key agent_id (did:key) encodes, over RFC 8785 canonical {agent_id, nonce, issued_at, amount, resource}',
    },
  };
}
