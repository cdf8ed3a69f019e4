import type { FastifyReply, FastifyRequest } from 'fastify';
import { BastionError } from '../../errors.js';
import { findAccountWithPlan, type AccountWithPlan } from '../../storage/accounts.js';
import { familyActive } from '../../storage/refresh-tokens.js';

export interface PortalPrincipal {
  account: AccountWithPlan;
  accountId: string;
  tenantId: string;
  familyId: string;
  plan: string;
  addons: string[];
}

const unauthenticated = () =>
  new BastionError('PORTAL_UNAUTHENTICATED', { headers: { 'www-authenticate': 'Bearer realm="bastion-portal", error="invalid_token"' } });

/**
 * onRequest for portal routes marked `security: 'bearer'` (SPEC §5 "Portal bearer"). The JWT proves who and which
 * login; the account, its tenant's plan and the refresh family are read fresh, so a logout, a password reset or a
 * billing change takes effect on the very next request rather than when the token expires.
 */
export async function requireBearer(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || header.length > 4096) throw unauthenticated();
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) throw unauthenticated();
  const claims = await request.server.portalAuth.tokens.verifyAccess(match[1]);
  if (!claims) throw unauthenticated();
  const db = request.server.services.storage.db;
  const account = await findAccountWithPlan(db, claims.accountId);
  if (!account || account.tenantId !== claims.tenantId) throw unauthenticated();
  if (!(await familyActive(db, claims.familyId))) throw unauthenticated();
  request.portal = { account, accountId: account.id, tenantId: account.tenantId, familyId: claims.familyId, plan: account.plan, addons: account.addons };
  request.tenantId = account.tenantId;
}

declare module 'fastify' {
  interface FastifyRequest {
    portal?: PortalPrincipal;
  }
}
