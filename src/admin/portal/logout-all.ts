import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { revokeAccountFamilies } from '../../storage/refresh-tokens.js';
import { revokeAccountSessions } from '../../storage/sessions.js';
import { clearRefreshCookie } from './token-response.js';

/**
 * POST /portal/auth/logout-all ("log out everywhere", issue 16): revokes every refresh family of the account, this
 * one included, and every /auth session, so each access token fails on its next request (the bearer check reads the
 * family fresh) and no browser can refresh. Bearer-authenticated: a forged cross-site form cannot carry the token.
 */
export async function portalLogoutAllRoutes(app: FastifyInstance): Promise<void> {
  const db = app.services.storage.db;
  app.post(
    '/auth/logout-all',
    {
      config: { security: 'bearer' },
      schema: { summary: 'Log out everywhere: revoke every refresh family and session of the account, clear the cookie', response: { 204: Type.Null() } },
    },
    async (request, reply) => {
      const { accountId } = request.portal!;
      await revokeAccountFamilies(db, accountId);
      await revokeAccountSessions(db, accountId);
      clearRefreshCookie(reply);
      return reply.code(204).send();
    },
  );
}
