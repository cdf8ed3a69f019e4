import type { FastifyInstance } from 'fastify';
import { BastionError } from '../errors.js';
import { lazily } from '../lazy.js';
import { sweepExpired } from '../storage/payment-sweep.js';
import type { Lightning } from './handle-post.js';
import { LndClient } from './lnd.js';

// The SDK's transport, zod, x402 and macaroon (admission, payment offers, the tool server): loaded by the first POST /mcp.
const loadPostHandler = lazily(() => import('./handle-post.js'));

/** How often a replica deletes expired quotes, idempotency rows and payment nonces (bounded per run). */
export const SWEEP_EVERY_MS = 60_000;

const description = [
  'MCP (Streamable HTTP, stateless: every POST stands alone, no Mcp-Session-Id) with the paid tools filter, redact and assess.',
  'initialize and tools/list are free. A tools/call needs one credential: X-API-Key (the key\'s tenant; counts toward its monthly quota like POST /filter),',
  'PAYMENT-SIGNATURE (x402: base64 JSON {agent_id (did:key), nonce, issued_at, amount, resource, signature}, charged to the agent\'s limits) or',
  'Authorization: L402 <macaroon>:<preimage> (when LND_REST_URL is set). Unfunded, invalid, stale, replayed or insufficient proofs, revoked agents and',
  'exceeded limits answer 402 with the reason as error code, x402 PaymentRequired fields (x402Version, resource, accepts) in the body and the',
  'PAYMENT-REQUIRED header, and WWW-Authenticate: L402 macaroon="…", invoice="…" when Lightning is offered. A proof header that cannot be decoded is 422,',
  'and so is a tools/call without an id (a JSON-RPC notification is never answered, so it is never run or charged). Lightning invoices are minted',
  'within a per-client-IP and a gateway-wide bound per minute (BASTION_L402_INVOICE_IP_RATE, BASTION_L402_INVOICE_RATE); beyond either, 429 with Retry-After.',
].join(' ');

const PaymentRequiredBody = {
  type: 'object',
  additionalProperties: true,
  properties: {
    error: { type: 'object', additionalProperties: true, properties: { code: { type: 'string' }, message: { type: 'string' }, reason: { type: 'string' }, tool: { type: 'string' }, item: { type: 'string' }, limit: { type: 'string' } } },
    x402Version: { type: 'integer', enum: [2] },
    resource: { type: 'object', additionalProperties: true, properties: { url: { type: 'string' }, description: { type: 'string' }, mimeType: { type: 'string' } } },
    accepts: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: true,
        properties: { scheme: { type: 'string' }, network: { type: 'string' }, asset: { type: 'string' }, amount: { type: 'string' }, payTo: { type: 'string' }, maxTimeoutSeconds: { type: 'integer' }, extra: { type: 'object', additionalProperties: true } },
      },
    },
    l402: { type: 'object', additionalProperties: true, properties: { macaroon: { type: 'string' }, invoice: { type: 'string' }, amount_sat: { type: 'integer' }, expires_at: { type: 'string' } } },
  },
};

/** POST /mcp on the data plane: admission (key or payment proof, src/mcp/admission.ts), then the SDK's transport. */
export async function mcpRoutes(app: FastifyInstance): Promise<void> {
  const { config, storage } = app.services;
  const lnd = LndClient.fromConfig(config);
  // The L402 root key loader is made by the first request (handle-post.ts) and kept for the listener's life.
  const lightning: Lightning = { lnd, offered: lnd !== undefined && config.masterKey !== undefined };
  const sweep = setInterval(() => {
    sweepExpired(storage.db).catch((err: unknown) => app.log.warn({ event: 'payment_sweep_failed', reason: (err as Error).message }, 'sweep failed'));
  }, SWEEP_EVERY_MS);
  sweep.unref();
  app.addHook('onClose', async () => {
    clearInterval(sweep);
    await lnd?.close();
  });

  app.post(
    '/mcp',
    {
      config: { auth: 'payment', security: 'apiKey', paymentProof: true, rateLimited: true },
      schema: {
        summary: 'Paid MCP tools (filter, redact, assess) over Streamable HTTP: API key, x402 or L402 per call',
        description,
        body: { type: ['object', 'array'], description: 'A JSON-RPC 2.0 message (MCP)' },
        response: {
          200: { description: 'The JSON-RPC response (application/json)', type: 'object', additionalProperties: true },
          202: { description: 'A notification was accepted (no body)', type: 'null' },
          402: { description: 'Unfunded call: what to buy', ...PaymentRequiredBody },
          406: { description: 'Accept must allow application/json and text/event-stream (MCP Streamable HTTP)', type: 'object', additionalProperties: true },
        },
      },
    },
    async (request, reply) => {
      const { answerMcpPost } = await loadPostHandler();
      return answerMcpPost(request, reply, lightning);
    },
  );

  // Stateless: there is no session to stream (GET) or end (DELETE).
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: '/mcp',
      config: { auth: 'public' },
      schema: { hide: true },
      handler: async (_request, reply) => reply.header('allow', 'POST').code(405).send(new BastionError('METHOD_NOT_ALLOWED').toBody()),
    });
  }
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route also takes a payment proof (x402 PAYMENT-SIGNATURE or Authorization: L402) instead of an API key. */
    paymentProof?: boolean;
  }
}
