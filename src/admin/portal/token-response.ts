import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { base62 } from '../../auth/key-material.js';
import { newOpaqueToken } from '../../auth/opaque-tokens.js';
import type { Account } from '../../storage/accounts.js';
import { insertRefreshToken } from '../../storage/refresh-tokens.js';

/** SPEC §2: the portal's refresh cookie. Path-limited so the browser sends it to /portal/auth/* only. */
export const REFRESH_COOKIE = 'service_refresh';
const COOKIE_PATH = '/portal/auth';

export interface TokenResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
}

export const newFamilyId = () => 'fam_' + base62(randomBytes(16)).slice(-20);

/**
 * Issues an access token and a refresh token of `familyId` (a new family at login, the same one on refresh),
 * sets the refresh cookie and returns the token object.
 */
export async function issueTokens(request: FastifyRequest, reply: FastifyReply, account: Account, familyId = newFamilyId()): Promise<TokenResponse> {
  const { config, storage } = request.server.services;
  const refresh = newOpaqueToken('refresh');
  await insertRefreshToken(storage.db, {
    tokenHash: refresh.hash,
    familyId,
    accountId: account.id,
    expiresAt: Date.now() + config.refreshTokenTtlSeconds * 1000,
  });
  const accessToken = await request.server.portalAuth.tokens.access({ accountId: account.id, tenantId: account.tenantId, familyId });
  reply.setCookie(REFRESH_COOKIE, refresh.token, {
    httpOnly: true,
    secure: true,
    sameSite: 'strict',
    path: COOKIE_PATH,
    maxAge: config.refreshTokenTtlSeconds,
  });
  // Token responses must not be cached (RFC 6749 §5.1).
  reply.header('cache-control', 'no-store');
  return { access_token: accessToken, token_type: 'bearer', expires_in: config.accessTokenTtlSeconds };
}

export function clearRefreshCookie(reply: FastifyReply): void {
  reply.clearCookie(REFRESH_COOKIE, { httpOnly: true, secure: true, sameSite: 'strict', path: COOKIE_PATH });
}
