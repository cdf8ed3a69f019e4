import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { assertPasswordAcceptable, normalizeEmail } from '../../auth/accounts.js';
import { newOpaqueToken, opaqueHash } from '../../auth/opaque-tokens.js';
import { hashPassword } from '../../auth/passwords.js';
import { PORTAL_POLICY } from '../../auth/portal-policy.js';
import { confirmPassword, enabledTotp, useTotpCode } from '../../auth/sign-in.js';
import { BastionError } from '../../errors.js';
import { findAccount, findAccountByEmail, setPasswordHash } from '../../storage/accounts.js';
import { consumePasswordReset, insertPasswordReset, peekPasswordReset } from '../../storage/password-resets.js';
import { revokeAccountFamilies } from '../../storage/refresh-tokens.js';
import { revokeAccountSessions } from '../../storage/sessions.js';
import { limitPerClientIp, limitPerEmail } from '../attempts.js';
import { Code, Email, NewPassword, Password } from './schemas.js';

const ForgotBody = Type.Object({ email: Email }, { additionalProperties: false });
const ResetBody = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 128 }),
    new_password: NewPassword,
    totp_code: Type.Optional({ ...Code, description: 'Required when two-factor is on for the account' }),
  },
  { additionalProperties: false },
);
const ChangeBody = Type.Object({ current_password: Password, new_password: NewPassword }, { additionalProperties: false });

/** Forgot/reset password (public) and change-password (bearer). Every change ends the account's other logins. */
export async function portalPasswordRoutes(app: FastifyInstance): Promise<void> {
  const { storage, config } = app.services;
  const db = storage.db;

  app.post<{ Body: Static<typeof ForgotBody> }>(
    '/auth/forgot-password',
    {
      config: { security: 'public', rateLimited: true },
      schema: {
        summary: 'A single-use reset token in the response (no e-mail delivery). An unknown e-mail gets a token of the same shape that never works.',
        body: ForgotBody,
        response: { 202: Type.Object({ reset_token: Type.String(), expires_in: Type.Integer() }) },
      },
    },
    async (request, reply) => {
      await limitPerClientIp(request, PORTAL_POLICY.perIp.forgotPassword);
      const email = normalizeEmail(request.body.email);
      await limitPerEmail(request, PORTAL_POLICY.perAccount.forgotPassword, email);
      const { token, hash } = newOpaqueToken('reset');
      const account = await findAccountByEmail(db, email);
      if (account) {
        await insertPasswordReset(db, { tokenHash: hash, accountId: account.id, expiresAt: Date.now() + PORTAL_POLICY.resetTokenSeconds * 1000 });
      }
      return reply.code(202).header('cache-control', 'no-store').send({ reset_token: token, expires_in: PORTAL_POLICY.resetTokenSeconds });
    },
  );

  app.post<{ Body: Static<typeof ResetBody> }>(
    '/auth/reset-password',
    {
      config: { security: 'public', rateLimited: true },
      schema: {
        summary: 'Set a new password with a reset token; revokes every refresh family and session of the account',
        body: ResetBody,
        response: { 200: Type.Object({ password_reset: Type.Literal(true) }) },
      },
    },
    async (request) => {
      await limitPerClientIp(request, PORTAL_POLICY.perIp.resetPassword);
      const { token, new_password, totp_code } = request.body;
      const hash = opaqueHash('reset', token);
      const accountId = hash ? await peekPasswordReset(db, hash) : undefined;
      const account = accountId ? await findAccount(db, accountId) : undefined;
      if (!hash || !account) throw new BastionError('RESET_TOKEN_INVALID');
      assertPasswordAcceptable(new_password, account.email, 'new_password');
      // The token travels in a response body, so on a two-factor account it is not enough on its own.
      const totp = await enabledTotp(db, account.id);
      if (totp) {
        if (!totp_code) throw new BastionError('TOTP_REQUIRED');
        await useTotpCode(db, config.masterKey, account.id, totp, totp_code);
      }
      if ((await consumePasswordReset(db, hash)) !== account.id) throw new BastionError('RESET_TOKEN_INVALID');
      await setPasswordHash(db, account.id, await hashPassword(new_password));
      await revokeAccountFamilies(db, account.id);
      await revokeAccountSessions(db, account.id);
      request.tenantId = account.tenantId;
      return { password_reset: true as const };
    },
  );

  app.post<{ Body: Static<typeof ChangeBody> }>(
    '/me/change-password',
    {
      config: { security: 'bearer' },
      schema: {
        summary: 'Change the password; every other login (refresh families, /auth sessions) is revoked, this one stays',
        body: ChangeBody,
        response: { 200: Type.Object({ password_changed: Type.Literal(true) }) },
      },
    },
    async (request) => {
      const { account, familyId } = request.portal!;
      const { current_password, new_password } = request.body;
      await confirmPassword(db, account, current_password);
      assertPasswordAcceptable(new_password, account.email, 'new_password');
      await setPasswordHash(db, account.id, await hashPassword(new_password));
      await revokeAccountFamilies(db, account.id, familyId);
      await revokeAccountSessions(db, account.id);
      return { password_changed: true as const };
    },
  );
}
