import type { FastifyRequest } from 'fastify';
import { BastionError, RequestValidationError } from '../../errors.js';

/**
 * Relay loops: an upstream URL that leads back to a Bastion gateway (its own listener through a name or a load
 * balancer, or another gateway relaying back) would relay one request forever. Each relay sends the count of Bastion
 * relays the request has passed in this header; a request arriving with MAX_RELAY_HOPS is refused (508) before it is
 * relayed, so a loop ends after a few hops and the agent is told why. A chain of up to MAX_RELAY_HOPS gateways
 * (a gateway in front of another) still works.
 */
export const HOPS_HEADER = 'bastion-relay-hops';
export const MAX_RELAY_HOPS = 4;

/** The hop count to send upstream for this request; refuses a request at the limit or with a malformed count. */
export function nextRelayHops(request: FastifyRequest): string {
  const raw = request.headers[HOPS_HEADER];
  if (raw === undefined) return '1';
  if (typeof raw !== 'string' || !/^\d{1,2}$/.test(raw)) throw new RequestValidationError([{ loc: ['header', HOPS_HEADER], msg: 'The relay hop count is a number from 0 to 99', type: 'value_error.relay_hops' }]);
  const hops = Number(raw);
  if (hops >= MAX_RELAY_HOPS) throw new BastionError('MCP_RELAY_LOOP');
  return String(hops + 1);
}

/** Why an upstream answer with this (non-2xx) status is not relayed, as the agent reads it. */
export function upstreamStatusReason(status: number): string {
  return status === 508 ? 'the MCP server answered HTTP 508: a relay loop (its upstream URL leads back through a Bastion gateway)' : `the MCP server answered HTTP ${status}`;
}
