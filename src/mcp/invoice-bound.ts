import type { FastifyRequest } from 'fastify';
import { BastionError } from '../errors.js';
import type { PolicyState } from '../limits/headers.js';

const MINUTE_MS = 60_000;
export const PER_IP_POLICY = 'l402-invoices-per-ip';
export const GATEWAY_POLICY = 'l402-invoices';

/**
 * Bounds how many Lightning invoices unpaid /mcp calls make the node create: every unauthenticated 402 would otherwise
 * mint a fresh invoice (an LND round trip and a stored invoice) for free. Two sliding windows on the shared limiter
 * (in-process, or Redis so every replica counts together): one per client IP, checked first so one client cannot use
 * up the other, and one for the whole gateway, which bounds clients that rotate addresses. Over either: 429 in the
 * catalogue shape with Retry-After, and the node is never asked. Only admitted invoices consume the windows.
 */
export async function admitInvoice(request: FastifyRequest): Promise<void> {
  const { config, window } = request.server.services;
  const bounds: [string, string, number][] = [
    [PER_IP_POLICY, `l402-invoice-ip:${request.ip}`, config.l402InvoicesPerIpPerMinute],
    [GATEWAY_POLICY, 'l402-invoice-all', config.l402InvoicesPerMinute],
  ];
  for (const [name, key, quota] of bounds) {
    const result = await window.consume(key, quota, MINUTE_MS);
    const state: PolicyState = { name, quota, windowSeconds: 60, consumed: { remaining: result.remaining, resetMs: result.resetMs, denied: !result.allowed } };
    (request.rateState ??= []).push(state);
    if (!result.allowed) throw new BastionError('L402_INVOICES_LIMITED');
  }
}
