import type { FastifyInstance } from 'fastify';
import { refuseSpoofingName } from '../../http/display-name.js';
import { Type, type Static } from 'typebox';
import { registerAccount } from '../../auth/accounts.js';
import { opaqueHash } from '../../auth/opaque-tokens.js';
import { PORTAL_POLICY } from '../../auth/portal-policy.js';
import { enabledTotp, signInWithPassword } from '../../auth/sign-in.js';
import { BastionError } from '../../errors.js';
import { findAccount } from '../../storage/accounts.js';
import { exchangeRefreshToken, revokeFamily, revokeFamilyOfToken } from '../../storage/refresh-tokens.js';
import { limitPerClientIp } from '../attempts.js';
import { Company, DisplayName, Email, NewPassword, Password, TokenResponse, TotpRequired } from './schemas.js';
import { REFRESH_COOKIE, clearRefreshCookie, issueTokens } from './token-response.js';

const RegisterBody = Type.Object(
  { email: Email, password: NewPassword, display_name: Type.Optional(DisplayName), company: Type.Optional(Company) },
  { additionalProperties: false },
);
const LoginBody = Type.Object({ email: Email, password: Password }, { additionalProperties: false });

/** POST /portal/auth/register, /login, /refresh, /logout (SPEC §4.4; public per SPEC §5 rule 6). */
export async function portalAuthRoutes(app: FastifyInstance): Promise<void> {
  const db = app.services.storage.db;

  app.post<{ Body: Static<typeof RegisterBody> }>(
    '/auth/register',
    {
      config: { security: 'public', rateLimited: true },
      schema: {
        summary: 'Create a customer account and its tenant (plan free)',
        body: RegisterBody,
        response: { 201: Type.Object({ account_id: Type.String(), tenant_id: Type.String() }) },
      },
    },
    async (request, reply) => {
      await limitPerClientIp(request, PORTAL_POLICY.perIp.register);
      const { email, password, display_name, company } = request.body;
      refuseSpoofingName(display_name);
      const account = await registerAccount(db, { email, password, displayName: display_name, company });
      request.tenantId = account.tenantId;
      return reply.code(201).send({ account_id: account.id, tenant_id: account.tenantId });
    },
  );

  app.post<{ Body: Static<typeof LoginBody> }>(
    '/auth/login',
    {
      config: { security: 'public', rateLimited: true },
      schema: {
        summary: 'Log in: a token object and the service_refresh cookie, or a TOTP challenge when two-factor is on',
        body: LoginBody,
        response: { 200: Type.Union([TokenResponse, TotpRequired]) },
      },
    },
    async (request, reply) => {
      await limitPerClientIp(request, PORTAL_POLICY.perIp.login);
      const account = await signInWithPassword(db, request.body.email, request.body.password);
      request.tenantId = account.tenantId;
      if (await enabledTotp(db, account.id)) {
        reply.header('cache-control', 'no-store');
        return { totp_required: true as const, challenge_token: await app.portalAuth.tokens.challenge(account.id) };
      }
      return issueTokens(request, reply, account);
    },
  );

  app.post(
    '/auth/refresh',
    {
      config: { security: 'public' },
      schema: {
        summary: 'Exchange the service_refresh cookie for a new access token and a rotated cookie; a reused cookie revokes its family',
        response: { 200: TokenResponse },
      },
    },
    async (request, reply) => {
      const hash = opaqueHash('refresh', request.cookies[REFRESH_COOKIE]);
      const exchange = hash ? await exchangeRefreshToken(db, hash) : ({ status: 'invalid' } as const);
      const account = exchange.status === 'ok' ? await findAccount(db, exchange.accountId) : undefined;
      if (exchange.status !== 'ok' || !account) {
        clearRefreshCookie(reply);
        throw new BastionError('REFRESH_INVALID');
      }
      request.tenantId = account.tenantId;
      return issueTokens(request, reply, account, exchange.familyId);
    },
  );

  app.post(
    '/auth/logout',
    { config: { security: 'public' }, schema: { summary: 'Revoke the refresh family (cookie, or the bearer token\'s) and clear the cookie', response: { 204: Type.Null() } } },
    async (request, reply) => {
      const hash = opaqueHash('refresh', request.cookies[REFRESH_COOKIE]);
      if (hash) await revokeFamilyOfToken(db, hash);
      const bearer = /^Bearer\s+(\S{1,4096})$/i.exec(request.headers.authorization ?? '');
      const claims = bearer ? await app.portalAuth.tokens.verifyAccess(bearer[1]) : undefined;
      if (claims) await revokeFamily(db, claims.familyId);
      clearRefreshCookie(reply);
      return reply.code(204).send();
    },
  );
}
