import type { FastifyInstance } from 'fastify';
import { refuseSpoofingName } from '../../http/display-name.js';
import { Type, type Static } from 'typebox';
import { registerAccount } from '../../auth/accounts.js';
import { PORTAL_POLICY } from '../../auth/portal-policy.js';
import { enabledTotp, signInWithPassword, useTotpCode } from '../../auth/sign-in.js';
import { BastionError } from '../../errors.js';
import { findAccountWithPlan } from '../../storage/accounts.js';
import { revokeSession, sessionAccount } from '../../storage/sessions.js';
import { limitPerClientIp } from '../attempts.js';
import { Profile, profileOf } from '../portal/me.js';
import { Code, Company, DisplayName, Email, NewPassword, Password } from '../portal/schemas.js';
import { clearSessionCookie, sessionHash, startSession } from './cookie.js';

const SignupBody = Type.Object(
  { email: Email, password: NewPassword, display_name: Type.Optional(DisplayName), company: Type.Optional(Company) },
  { additionalProperties: false },
);
const LoginBody = Type.Object(
  { email: Email, password: Password, totp_code: Type.Optional({ ...Code, description: 'Required when two-factor is on' }) },
  { additionalProperties: false },
);
const SessionUser = Type.Object({ account_id: Type.String(), tenant_id: Type.String(), email: Type.String() });

/** /auth/signup, /login, /logout, /me (SPEC §4.2): the browser-session variant of portal sign-in. */
export async function sessionAuthRoutes(app: FastifyInstance): Promise<void> {
  const { storage, config } = app.services;
  const db = storage.db;

  app.post<{ Body: Static<typeof SignupBody> }>(
    '/signup',
    { config: { security: 'public' }, schema: { summary: 'Register an account and its tenant, and log in with the session cookie', body: SignupBody, response: { 200: SessionUser } } },
    async (request, reply) => {
      await limitPerClientIp(request, PORTAL_POLICY.perIp.register);
      const { email, password, display_name, company } = request.body;
      refuseSpoofingName(display_name);
      const account = await registerAccount(db, { email, password, displayName: display_name, company });
      request.tenantId = account.tenantId;
      await startSession(request, reply, account.id);
      return { account_id: account.id, tenant_id: account.tenantId, email: account.email };
    },
  );

  app.post<{ Body: Static<typeof LoginBody> }>(
    '/login',
    { config: { security: 'public' }, schema: { summary: 'Log in; issues the session cookie (HttpOnly, Secure, SameSite=Strict)', body: LoginBody, response: { 200: SessionUser } } },
    async (request, reply) => {
      await limitPerClientIp(request, PORTAL_POLICY.perIp.login);
      const account = await signInWithPassword(db, request.body.email, request.body.password);
      const totp = await enabledTotp(db, account.id);
      if (totp) {
        if (!request.body.totp_code) throw new BastionError('TOTP_REQUIRED');
        await limitPerClientIp(request, PORTAL_POLICY.perIp.totp);
        await useTotpCode(db, config.masterKey, account.id, totp, request.body.totp_code);
      }
      request.tenantId = account.tenantId;
      await startSession(request, reply, account.id);
      return { account_id: account.id, tenant_id: account.tenantId, email: account.email };
    },
  );

  app.post(
    '/logout',
    { config: { security: 'public' }, schema: { summary: 'End the session server-side and clear the cookie', response: { 200: Type.Object({ logged_out: Type.Literal(true) }) } } },
    async (request, reply) => {
      const hash = sessionHash(request);
      if (hash) await revokeSession(db, hash);
      clearSessionCookie(reply);
      return { logged_out: true as const };
    },
  );

  app.get(
    '/me',
    { config: { security: 'session' }, schema: { summary: 'The session\'s user (credential-aware CORS: only BASTION_CORS_ORIGINS)', response: { 200: Profile } } },
    async (request) => {
      const hash = sessionHash(request);
      const accountId = hash ? await sessionAccount(db, hash) : undefined;
      const account = accountId ? await findAccountWithPlan(db, accountId) : undefined;
      if (!account) throw new BastionError('SESSION_REQUIRED');
      request.tenantId = account.tenantId;
      return profileOf(account, (await enabledTotp(db, account.id)) !== undefined);
    },
  );
}
