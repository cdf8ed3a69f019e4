import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { seal } from '../../auth/crypto-box.js';
import { PORTAL_POLICY } from '../../auth/portal-policy.js';
import { enabledTotp, useTotpCode } from '../../auth/sign-in.js';
import { newTotpSecret, otpauthUri } from '../../auth/totp.js';
import { BastionError, errorCode } from '../../errors.js';
import { findAccount } from '../../storage/accounts.js';
import { deleteTotp, findTotp, savePendingTotp } from '../../storage/totp-secrets.js';
import { limitAttempts, limitPerClientIp } from '../attempts.js';
import { Code, TokenResponse } from './schemas.js';
import { issueTokens } from './token-response.js';

const CodeBody = Type.Object({ code: Code }, { additionalProperties: false });
const CompleteBody = Type.Object({ challenge_token: Type.String({ minLength: 1, maxLength: 2048 }), code: Code }, { additionalProperties: false });
const Enabled = Type.Object({ enabled: Type.Boolean() });

/** A challenge whose attempts are used up is simply no longer valid; any other failure (limiter down) stays itself. */
function asChallengeInvalid(err: unknown): never {
  if ((err as { code?: string }).code === errorCode('TOO_MANY_ATTEMPTS')) throw new BastionError('CHALLENGE_INVALID');
  throw err;
}

/** TOTP two-factor (SPEC §4.4, 6 digits per §5 rule 7): setup, confirm, disable, status, and login step 2. */
export async function portalTotpRoutes(app: FastifyInstance): Promise<void> {
  const { storage, config } = app.services;
  const db = storage.db;
  const { challengeAttempts, challengeSeconds } = PORTAL_POLICY.totp;

  app.post(
    '/auth/totp/setup',
    {
      config: { security: 'bearer' },
      schema: {
        summary: 'New TOTP secret and otpauth:// URI (issuer Bastion); two-factor is on once /totp/confirm accepts a code',
        response: { 200: Type.Object({ secret: Type.String(), otpauth_uri: Type.String() }) },
      },
    },
    async (request, reply) => {
      // Fails closed: a TOTP secret is never stored in plaintext.
      if (!config.masterKey) throw new BastionError('MASTER_KEY_MISSING');
      const { account } = request.portal!;
      if ((await findTotp(db, account.id))?.enabledAt != null) throw new BastionError('TOTP_ALREADY_ENABLED');
      const secret = newTotpSecret();
      if (!(await savePendingTotp(db, account.id, seal(config.masterKey, secret, account.id)))) throw new BastionError('TOTP_ALREADY_ENABLED');
      reply.header('cache-control', 'no-store');
      return { secret, otpauth_uri: otpauthUri(secret, account.email) };
    },
  );

  app.post<{ Body: Static<typeof CodeBody> }>(
    '/auth/totp/confirm',
    { config: { security: 'bearer' }, schema: { summary: 'Turn two-factor on with the first code from the authenticator', body: CodeBody, response: { 200: Enabled } } },
    async (request) => {
      const { accountId } = request.portal!;
      const record = await findTotp(db, accountId);
      if (!record) throw new BastionError('TOTP_NOT_SET_UP');
      if (record.enabledAt !== null) throw new BastionError('TOTP_ALREADY_ENABLED');
      await useTotpCode(db, config.masterKey, accountId, record, request.body.code, true);
      return { enabled: true };
    },
  );

  app.post<{ Body: Static<typeof CodeBody> }>(
    '/auth/totp/disable',
    { config: { security: 'bearer' }, schema: { summary: 'Turn two-factor off with a current code', body: CodeBody, response: { 200: Enabled } } },
    async (request) => {
      const { accountId } = request.portal!;
      const record = await enabledTotp(db, accountId);
      if (!record) throw new BastionError('TOTP_NOT_ENABLED');
      await useTotpCode(db, config.masterKey, accountId, record, request.body.code);
      await deleteTotp(db, accountId);
      return { enabled: false };
    },
  );

  app.get(
    '/auth/totp/status',
    { config: { security: 'bearer' }, schema: { summary: 'Whether two-factor is on', response: { 200: Enabled } } },
    async (request) => ({ enabled: (await enabledTotp(db, request.portal!.accountId)) !== undefined }),
  );

  app.post<{ Body: Static<typeof CompleteBody> }>(
    '/auth/totp/complete',
    {
      config: { security: 'public', rateLimited: true },
      schema: { summary: 'Login step 2: the challenge from /portal/auth/login and a 6-digit code → the full token object', body: CompleteBody, response: { 200: TokenResponse } },
    },
    async (request, reply) => {
      await limitPerClientIp(request, PORTAL_POLICY.perIp.totp);
      const challenge = await app.portalAuth.tokens.verifyChallenge(request.body.challenge_token);
      if (!challenge) throw new BastionError('CHALLENGE_INVALID');
      const attempts = { name: 'totp-challenge', limit: challengeAttempts, windowSeconds: challengeSeconds };
      await limitAttempts(request, attempts, challenge.challengeId).catch(asChallengeInvalid);
      const account = await findAccount(db, challenge.accountId);
      const record = account ? await enabledTotp(db, account.id) : undefined;
      if (!account || !record) throw new BastionError('CHALLENGE_INVALID');
      await useTotpCode(db, config.masterKey, account.id, record, request.body.code);
      // Single use: the first completion wins, a second one with the same challenge is refused.
      await limitAttempts(request, { name: 'totp-challenge-done', limit: 1, windowSeconds: challengeSeconds }, challenge.challengeId).catch(asChallengeInvalid);
      request.tenantId = account.tenantId;
      return issueTokens(request, reply, account);
    },
  );
}
