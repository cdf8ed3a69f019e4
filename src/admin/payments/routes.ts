import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { agentRefusal } from '../../agents/agent.js';
import { BastionError, RequestValidationError, type ErrorName } from '../../errors.js';
import { CATALOGUE } from '../../payments/catalogue.js';
import { buildQuote, canonicalMandate, jcs, sha256Hex } from '../../payments/quote.js';
import { signCanonical, verifiesFromDid } from '../../payments/signatures.js';
import { recordQuote, recordQuoteRefusal } from '../../storage/agent-quotes.js';
import { findAgent } from '../../storage/agents.js';
import { executeMandate, type Approval, type MandateRefusal } from '../../storage/mandates.js';
import { signingKey, type SigningKey } from '../../storage/signing-keys.js';
import { apiKeyAuth, scopedTenant } from '../api-key-auth.js';
import { Approval as ApprovalSchema, MandateBody, MandateHeaders, MandateRefusals, QuoteBody, QuoteRefusals, QuoteResponse } from './schemas.js';

const config = { security: 'apiKey', rateLimited: true } as const;

function answer(outcome: { approved: Approval } | { refused: MandateRefusal }): { status: number; body: unknown } {
  if ('approved' in outcome) return { status: 200, body: outcome.approved };
  const err = new BastionError(outcome.refused as ErrorName);
  return { status: err.statusCode, body: err.toBody() };
}

/**
 * AP2-style quotes and mandates (SPEC §4.5) on the admin listener, X-API-Key, the key's tenant only. The price comes
 * from the catalogue, the quote is signed by the gateway, and a mandate is decided in one transaction
 * (src/storage/mandates.ts). Every decision, approved or refused, is an activity record.
 */
export async function paymentRoutes(app: FastifyInstance): Promise<void> {
  await app.register(apiKeyAuth);
  const { storage, config: settings } = app.services;
  let key: Promise<SigningKey> | undefined;
  const gatewayKey = () => {
    if (!settings.masterKey) throw new BastionError('SIGNING_KEY_UNAVAILABLE');
    key ??= signingKey(storage.db, settings.masterKey, 'quotes').catch((err: unknown) => {
      key = undefined;
      throw new BastionError('SIGNING_KEY_UNAVAILABLE', { cause: err });
    });
    return key;
  };

  app.post<{ Body: Static<typeof QuoteBody> }>(
    '/quote',
    {
      config,
      schema: {
        summary: 'Quote a catalogue item for an agent: signed canonical quote and its one-time hash (5 minutes)',
        description: 'Refusals: 404 AGENT_NOT_FOUND, 403 AGENT_REVOKED or AGENT_EXPIRED, 503 SIGNING_KEY_UNAVAILABLE; each refusal is an activity record.',
        body: QuoteBody,
        response: { 200: QuoteResponse, ...QuoteRefusals },
      },
    },
    async (request) => {
      const tenantId = scopedTenant(request);
      const now = Date.now();
      const item = CATALOGUE.get(request.body.item)!;
      const signer = await gatewayKey();
      const agent = await findAgent(storage.db, tenantId, request.body.agent_id);
      const refused = agent ? agentRefusal(agent, now) : 'AGENT_NOT_FOUND';
      if (refused) {
        await recordQuoteRefusal(storage, tenantId, agent, refused, item.item, now);
        throw new BastionError(refused);
      }
      const built = buildQuote({ quoteId: `quo_${randomBytes(16).toString('base64url')}`, tenantId, agentId: agent!.agent_id, agentDid: agent!.did, item, now });
      const signature = await signCanonical(built.canonical, signer.privateKey, signer.kid, 'bastion-quote+jws');
      await recordQuote(storage, built.quote, built.quoteHash, item.amount, now);
      return { quote: built.quote, canonical: built.canonical, quote_hash: built.quoteHash, signature, signing_key: { kid: signer.kid, jwk: signer.publicJwk } };
    },
  );

  app.post<{ Body: Static<typeof MandateBody>; Headers: Static<typeof MandateHeaders> }>(
    '/mandate/execute',
    {
      config,
      schema: {
        summary: 'Execute a mandate: the agent-signed quote hash, checked and spent in one transaction (Idempotency-Key supported)',
        description:
          'Refusals, each an activity record: 404 AGENT_NOT_FOUND, QUOTE_NOT_FOUND; 403 AGENT_REVOKED, AGENT_EXPIRED, MANDATE_SIGNATURE_INVALID, QUOTE_AGENT_MISMATCH; 409 QUOTE_USED, QUOTE_EXPIRED; 402 CURRENCY_MISMATCH, PAYEE_NOT_ALLOWED, LIMIT_PER_TRANSACTION, LIMIT_DAILY, LIMIT_MONTHLY. Idempotency-Key reused with another body → 422.',
        headers: MandateHeaders,
        body: MandateBody,
        response: { 200: ApprovalSchema, ...MandateRefusals },
      },
    },
    async (request, reply) => {
      const tenantId = scopedTenant(request);
      const { mandate, signature } = request.body;
      const idemKey = request.headers['idempotency-key'];
      const bodyHash = sha256Hex(jcs(request.body));
      const canonical = canonicalMandate(mandate);
      const outcome = await executeMandate(storage, {
        tenantId,
        agentId: mandate.agent_id,
        quoteHash: mandate.quote_hash,
        verify: (agent) => verifiesFromDid(signature, agent.did, canonical),
        idempotency: idemKey ? { key: idemKey, bodyHash } : undefined,
        answer,
      });
      if ('replay' in outcome) {
        if (outcome.replay.bodyHash !== bodyHash) {
          throw new RequestValidationError([{ loc: ['header', 'idempotency-key'], msg: 'this Idempotency-Key was used with another body', type: 'value_error.idempotency_key_reused' }]);
        }
        if (outcome.replay.status === null || outcome.replay.response === null) throw new BastionError('INTERNAL');
        return reply.code(outcome.replay.status).header('idempotent-replayed', 'true').send(JSON.parse(outcome.replay.response));
      }
      const { status, body } = answer(outcome);
      if (status !== 200) throw new BastionError((outcome as { refused: MandateRefusal }).refused);
      return reply.code(status).send(body);
    },
  );
}
