import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { AttemptLimit } from '../auth/portal-policy.js';
import { BastionError } from '../errors.js';
import { rateLimitHeaders, type PolicyState } from '../limits/headers.js';
import { noteAttemptPolicy } from './rate-limit-policy.js';

/**
 * Attempt windows for the unauthenticated portal and session routes (login, TOTP, register, password reset,
 * waitlist), on the shared sliding window: in-process, or Redis so every replica counts together.
 * Only a refusal carries the counters (with Retry-After), so a success says nothing about them; every response
 * publishes the window's policy (rate-limit-policy.ts).
 */
export async function limitAttempts(request: FastifyRequest, limit: AttemptLimit, subject: string): Promise<void> {
  noteAttemptPolicy(request, limit);
  const result = await request.server.services.window.consume(`portal:${limit.name}:${subject}`, limit.limit, limit.windowSeconds * 1000);
  if (result.allowed) return;
  const state: PolicyState = {
    name: limit.name,
    quota: limit.limit,
    windowSeconds: limit.windowSeconds,
    consumed: { remaining: result.remaining, resetMs: result.resetMs, denied: true },
  };
  throw new BastionError('TOO_MANY_ATTEMPTS', { headers: rateLimitHeaders([state]) });
}

export function limitPerClientIp(request: FastifyRequest, limit: AttemptLimit): Promise<void> {
  return limitAttempts(request, limit, request.ip);
}

/** Per-e-mail windows key on a hash, so the limiter store never holds an address (and unknown ones count the same). */
export function limitPerEmail(request: FastifyRequest, limit: AttemptLimit, normalizedEmail: string): Promise<void> {
  return limitAttempts(request, limit, createHash('sha256').update(normalizedEmail, 'utf8').digest('hex'));
}
