import type { FastifyReply, FastifyRequest } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { BastionError, RequestValidationError } from '../errors.js';
import { rateLimitHeaders } from '../limits/headers.js';
import { admit } from './admission.js';
import type { LndClient } from './lnd.js';
import { rootKeyLoader, sendPaymentRequired } from './payment-required.js';
import { buildToolServer } from './tools.js';

/**
 * The work of POST /mcp (src/mcp/route.ts): envelope check, admission (key or payment proof), then the SDK's transport.
 * Its own module because it is what pulls in the MCP SDK, zod, x402 and macaroon: route.ts imports it on the first
 * POST /mcp, so a gateway that never serves MCP never loads them.
 */

/** The listener's Lightning state: the LND client (when configured) and the L402 root key loader, made once. */
export interface Lightning {
  lnd?: LndClient;
  offered: boolean;
  rootKey?: () => Promise<Buffer>;
}

export async function answerMcpPost(request: FastifyRequest, reply: FastifyReply, state: Lightning): Promise<unknown> {
  checkEnvelope(request.body, request.headers.accept);
  state.rootKey ??= rootKeyLoader(request);
  const lightning = { lnd: state.lnd, rootKey: state.rootKey, offered: state.offered };
  const admission = await admit(request, reply, lightning);
  if ('unfunded' in admission) return sendPaymentRequired(request, reply, admission.unfunded, lightning);

  const server = buildToolServer(request, admission.admitted);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  reply.hijack();
  const res = reply.raw;
  if (request.rateState) for (const [name, value] of Object.entries(rateLimitHeaders(request.rateState))) res.setHeader(name, value);
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  try {
    await server.connect(transport);
    await transport.handleRequest(request.raw, res, request.body);
  } catch (err) {
    request.log.error({ event: 'mcp_transport_failed', err: (err as Error).message }, 'MCP transport failed');
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify(new BastionError('INTERNAL').toBody()));
  }
  return undefined;
}

/** Most messages in one POST (JSON-RPC batch); MCP clients send one. */
const MAX_BATCH = 16;

/**
 * Refuses in the catalogue's shapes what the SDK would refuse in JSON-RPC's (400/406 with a numeric error code): every
 * message must be a JSON-RPC 2.0 message, and the client must accept both answer forms Streamable HTTP may use.
 */
function checkEnvelope(body: unknown, accept: string | undefined): void {
  const messages = Array.isArray(body) ? body : [body];
  if (messages.length === 0 || messages.length > MAX_BATCH) {
    throw new RequestValidationError([{ loc: ['body'], msg: `Send 1 to ${MAX_BATCH} JSON-RPC messages`, type: 'value_error.batch' }]);
  }
  messages.forEach((m, i) => {
    if (!JSONRPCMessageSchema.safeParse(m).success) {
      throw new RequestValidationError([{ loc: Array.isArray(body) ? ['body', i] : ['body'], msg: 'Not a JSON-RPC 2.0 message', type: 'value_error.jsonrpc' }]);
    }
  });
  if (!accept || !accept.includes('application/json') || !accept.includes('text/event-stream')) throw new BastionError('MCP_NOT_ACCEPTABLE');
}
