import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { encodePaymentRequiredHeader } from '@x402/core/http';
import { ERRORS, errorCode, type ErrorName } from '../errors.js';
import { mintMacaroon } from '../payments/l402.js';
import { SATS } from '../payments/lightning-prices.js';
import type { CatalogueItem } from '../payments/catalogue.js';
import { toolResource, x402Requirements } from '../payments/x402.js';
import { gatewaySecret } from '../storage/gateway-secrets.js';
import { admitInvoice } from './invoice-bound.js';
import type { LndClient } from './lnd.js';

/** Which spend limit a refusal names, so an agent (or its operator) knows what to raise. */
const LIMIT_NAMES: Partial<Record<string, string>> = { LIMIT_PER_TRANSACTION: 'per_transaction', LIMIT_DAILY: 'daily', LIMIT_MONTHLY: 'monthly', PAYEE_NOT_ALLOWED: 'allowed_payees', CURRENCY_MISMATCH: 'currency' };

export interface Unfunded {
  tool: string;
  item: CatalogueItem;
  reason: ErrorName;
}

/** The L402 macaroon root key, generated once and sealed under the master key (like the quote-signing key). */
export function rootKeyLoader(request: FastifyRequest): () => Promise<Buffer> {
  let key: Promise<Buffer> | undefined;
  return () => {
    const { storage, config } = request.server.services;
    if (!config.masterKey) return Promise.reject(new Error('BASTION_MASTER_KEY is not configured'));
    key ??= gatewaySecret(storage.db, config.masterKey, 'l402-root').catch((err: unknown) => {
      key = undefined;
      throw err;
    });
    return key;
  };
}

/**
 * 402 for an unfunded paid call (SPEC §5 rule 3: the body names what to buy). The body is the catalogue error (code =
 * the reason) beside x402 v2's PaymentRequired fields (`x402Version`, `resource`, `accepts`); the same PaymentRequired
 * goes base64 in `PAYMENT-REQUIRED` (x402 v2's HTTP transport, with the reason as its `error` string). With LND
 * configured and the master key set, a fresh invoice and macaroon are offered too, in `WWW-Authenticate: L402 …` and in
 * the body's `l402`. An LND failure only drops the L402 offer (logged as metadata); x402 is always offered. Minting
 * is bounded per client IP and per gateway (invoice-bound.ts): over the bound the answer is 429 and LND is not asked.
 */
export async function sendPaymentRequired(request: FastifyRequest, reply: FastifyReply, unfunded: Unfunded, lightning: { lnd?: LndClient; rootKey: () => Promise<Buffer> }) {
  const now = Date.now();
  const { tool, item, reason } = unfunded;
  const resource = { url: toolResource(tool), description: item.description, mimeType: 'application/json' };
  const accepts = [x402Requirements(item, tool, now)];
  const limit = LIMIT_NAMES[reason];
  const body: Record<string, unknown> = {
    error: { code: errorCode(reason), message: ERRORS[reason].message, reason, tool, item: item.item, ...(limit ? { limit } : {}) },
    x402Version: 2,
    resource,
    accepts,
  };
  reply.header('payment-required', encodePaymentRequiredHeader({ x402Version: 2, error: reason, resource, accepts }));
  const sats = SATS.get(item.item);
  if (lightning.lnd && sats !== undefined && request.server.services.config.masterKey) {
    // Outside the try: over the bound the answer is 429, not a 402 without the offer.
    await admitInvoice(request);
    try {
      const ttl = request.server.services.config.l402TtlSeconds;
      const invoice = await lightning.lnd.createInvoice(sats, `bastion ${item.item}`, ttl);
      const expiresAt = now + ttl * 1000;
      const macaroon = mintMacaroon(await lightning.rootKey(), { paymentHash: invoice.paymentHash, tool, expiresAt }, randomBytes(32));
      reply.header('www-authenticate', `L402 macaroon="${macaroon}", invoice="${invoice.paymentRequest}"`);
      body.l402 = { macaroon, invoice: invoice.paymentRequest, amount_sat: sats, expires_at: new Date(expiresAt).toISOString(), authorization: 'L402 <macaroon>:<hex preimage>' };
    } catch (err) {
      request.log.warn({ event: 'l402_offer_failed', reason: (err as Error).message }, 'L402 invoice not offered');
    }
  }
  return reply.code(402).header('cache-control', 'no-store').send(body);
}
