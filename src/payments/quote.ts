import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { toDecimal } from '../agents/money.js';
import type { CatalogueItem } from './catalogue.js';

/** A quote lives 5 minutes (issue 12): long enough for an agent to sign a mandate, short enough to bound exposure. */
export const QUOTE_TTL_MS = 5 * 60_000;
export const QUOTE_ISSUER = 'bastion';

/** The quote as signed and hashed. Field set is fixed; its RFC 8785 canonical form is what `quote_hash` covers. */
export interface Quote {
  quote_id: string;
  issuer: string;
  tenant_id: string;
  agent_id: string;
  agent_did: string;
  item: string;
  payee: string;
  amount: string;
  currency: string;
  issued_at: string;
  expires_at: string;
}

export function jcs(value: unknown): string {
  const canonical = canonicalize(value);
  if (canonical === undefined) throw new Error('value cannot be canonicalized');
  return canonical;
}

export const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

export function buildQuote(input: { quoteId: string; tenantId: string; agentId: string; agentDid: string; item: CatalogueItem; now: number }): { quote: Quote; canonical: string; quoteHash: string } {
  const quote: Quote = {
    quote_id: input.quoteId,
    issuer: QUOTE_ISSUER,
    tenant_id: input.tenantId,
    agent_id: input.agentId,
    agent_did: input.agentDid,
    item: input.item.item,
    payee: input.item.payee,
    amount: toDecimal(input.item.amount, input.item.currency),
    currency: input.item.currency,
    issued_at: new Date(input.now).toISOString(),
    expires_at: new Date(input.now + QUOTE_TTL_MS).toISOString(),
  };
  const canonical = jcs(quote);
  return { quote, canonical, quoteHash: sha256Hex(canonical) };
}

/** What the agent signs: its id and the quote hash, canonical (RFC 8785). */
export interface Mandate {
  agent_id: string;
  quote_hash: string;
}

export const canonicalMandate = (mandate: Mandate) => jcs({ agent_id: mandate.agent_id, quote_hash: mandate.quote_hash });
