import type { FastifyReply, FastifyRequest } from 'fastify';
import { newOpaqueToken, opaqueHash } from '../../auth/opaque-tokens.js';
import { insertSession } from '../../storage/sessions.js';

/** The /auth/* session cookie (SPEC §4.2): opaque, stored hashed server-side, so logout really ends it. */
export const SESSION_COOKIE = 'bastion_session';
const OPTIONS = { httpOnly: true, secure: true, sameSite: 'strict', path: '/auth' } as const;

export async function startSession(request: FastifyRequest, reply: FastifyReply, accountId: string): Promise<void> {
  const { config, storage } = request.server.services;
  const { token, hash } = newOpaqueToken('session');
  await insertSession(storage.db, { tokenHash: hash, accountId, expiresAt: Date.now() + config.sessionTtlSeconds * 1000 });
  reply.setCookie(SESSION_COOKIE, token, { ...OPTIONS, maxAge: config.sessionTtlSeconds });
  reply.header('cache-control', 'no-store');
}

export function sessionHash(request: FastifyRequest): string | undefined {
  return opaqueHash('session', request.cookies[SESSION_COOKIE]);
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, OPTIONS);
}
