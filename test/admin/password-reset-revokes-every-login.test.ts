import t from 'tap';
import { hashKey } from '../../src/auth/key-material.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { MASTER_KEY, PASSWORD, account, bearer, cookieValue, errorCodeOf, login, totpCode } from '../helpers/portal.js';

const NEW_PASSWORD = 'quartz-Meadow-falcon-77';

t.test('forgot and reset password', async (t) => {
  const gw = await startTestGateway(t, { config: { masterKey: MASTER_KEY } });
  const portal = (path: string, init: Parameters<typeof call>[1] = {}) => call(`${gw.adminUrl}/portal${path}`, init);
  const db = gw.services.storage.db;

  t.test('a reset revokes every refresh family and /auth session of the account', async (t) => {
    const bob = await account(gw.adminUrl, 'bob@example.com');
    const second = await login(gw.adminUrl, 'bob@example.com');
    const browser = await call(`${gw.adminUrl}/auth/login`, { body: { email: 'bob@example.com', password: PASSWORD } });
    const sessionCookie = `bastion_session=${cookieValue(browser, 'bastion_session')}`;
    t.equal((await call(`${gw.adminUrl}/auth/me`, { headers: { cookie: sessionCookie } })).status, 200);

    const forgot = await portal('/auth/forgot-password', { body: { email: 'BOB@example.com' } });
    t.equal(forgot.status, 202);
    const { reset_token, expires_in } = forgot.json<{ reset_token: string; expires_in: number }>();
    t.match(reset_token, /^bsp_[0-9A-Za-z]{43}$/);
    t.equal(expires_in, 1800);
    const rows = await db.selectFrom('password_resets').selectAll().execute();
    t.equal(rows.length, 1);
    t.equal(rows[0].token_hash, hashKey(reset_token), 'only the hash is stored');
    t.notOk(JSON.stringify(rows).includes(reset_token));

    const weak = await portal('/auth/reset-password', { body: { token: reset_token, new_password: 'Password1234!' } });
    t.equal(weak.status, 422, 'the new password is checked like any other');
    t.same(weak.json<{ detail: { loc: string[] }[] }>().detail[0].loc, ['body', 'new_password']);

    const reset = await portal('/auth/reset-password', { body: { token: reset_token, new_password: NEW_PASSWORD } });
    t.equal(reset.status, 200);
    t.same(reset.json(), { password_reset: true });

    for (const login of [bob, second]) {
      t.equal((await portal('/me', { headers: bearer(login.access) })).status, 401, 'access token of an old login refused');
      t.equal((await portal('/auth/refresh', { method: 'POST', headers: { cookie: `service_refresh=${login.refresh}` } })).status, 401);
    }
    t.equal((await call(`${gw.adminUrl}/auth/me`, { headers: { cookie: sessionCookie } })).status, 401, 'the browser session ended too');

    t.equal((await portal('/auth/login', { body: { email: 'bob@example.com', password: PASSWORD } })).status, 401, 'the old password is gone');
    t.equal((await portal('/auth/login', { body: { email: 'bob@example.com', password: NEW_PASSWORD } })).status, 200);

    const again = await portal('/auth/reset-password', { body: { token: reset_token, new_password: 'another-Strong-pass-31' } });
    t.equal(again.status, 400, 'a reset token is single-use');
    t.equal(errorCodeOf(again), 'BASTION_ERR_RESET_TOKEN_INVALID');
  });

  t.test('an unknown e-mail gets the same 202 and a token of the same shape that never works', async (t) => {
    const unknown = await portal('/auth/forgot-password', { body: { email: 'nobody@example.com' } });
    t.equal(unknown.status, 202);
    const { reset_token } = unknown.json<{ reset_token: string }>();
    t.match(reset_token, /^bsp_[0-9A-Za-z]{43}$/);
    t.same(Object.keys(unknown.json()).sort(), ['expires_in', 'reset_token']);
    const res = await portal('/auth/reset-password', { body: { token: reset_token, new_password: NEW_PASSWORD } });
    t.equal(res.status, 400);
    t.equal(errorCodeOf(res), 'BASTION_ERR_RESET_TOKEN_INVALID');
  });

  t.test('an expired token and a superseded token are refused', async (t) => {
    await account(gw.adminUrl, 'carol@example.com');
    const older = (await portal('/auth/forgot-password', { body: { email: 'carol@example.com' } })).json<{ reset_token: string }>().reset_token;
    const newer = (await portal('/auth/forgot-password', { body: { email: 'carol@example.com' } })).json<{ reset_token: string }>().reset_token;
    t.equal((await portal('/auth/reset-password', { body: { token: older, new_password: NEW_PASSWORD } })).status, 400, 'only the newest token counts');
    await db.updateTable('password_resets').set({ expires_at: Date.now() - 1 }).where('token_hash', '=', hashKey(newer)).execute();
    t.equal((await portal('/auth/reset-password', { body: { token: newer, new_password: NEW_PASSWORD } })).status, 400, 'expired');
  });

  t.test('on a two-factor account the reset token alone is not enough', async (t) => {
    const dave = await account(gw.adminUrl, 'dave@example.com');
    const { secret } = (await portal('/auth/totp/setup', { method: 'POST', headers: bearer(dave.access) })).json<{ secret: string }>();
    t.equal((await portal('/auth/totp/confirm', { headers: bearer(dave.access), body: { code: await totpCode(secret) } })).status, 200);
    const { reset_token } = (await portal('/auth/forgot-password', { body: { email: 'dave@example.com' } })).json<{ reset_token: string }>();
    const without = await portal('/auth/reset-password', { body: { token: reset_token, new_password: NEW_PASSWORD } });
    t.equal(without.status, 401);
    t.equal(errorCodeOf(without), 'BASTION_ERR_TOTP_REQUIRED');
    const withCode = await portal('/auth/reset-password', { body: { token: reset_token, new_password: NEW_PASSWORD, totp_code: await totpCode(secret, 1) } });
    t.equal(withCode.status, 200, 'the token was not spent by the refused attempt');
  });

  t.test('change-password keeps this login and revokes the others', async (t) => {
    const erin = await account(gw.adminUrl, 'erin@example.com');
    const other = await login(gw.adminUrl, 'erin@example.com');
    const wrong = await portal('/me/change-password', { headers: bearer(erin.access), body: { current_password: 'not-my-password-1', new_password: NEW_PASSWORD } });
    t.equal(wrong.status, 401);
    t.equal(errorCodeOf(wrong), 'BASTION_ERR_INVALID_CREDENTIALS');
    const ok = await portal('/me/change-password', { headers: bearer(erin.access), body: { current_password: PASSWORD, new_password: NEW_PASSWORD } });
    t.equal(ok.status, 200);
    t.equal((await portal('/me', { headers: bearer(erin.access) })).status, 200, 'the caller stays signed in');
    t.equal((await portal('/me', { headers: bearer(other.access) })).status, 401, 'the other login is revoked');
    t.equal((await portal('/auth/login', { body: { email: 'erin@example.com', password: NEW_PASSWORD } })).status, 200);
  });

  t.test('reset tokens and passwords never reach the logs', async (t) => {
    t.notOk(gw.logs.text.includes('bsp_'));
    t.notOk(gw.logs.text.includes(NEW_PASSWORD));
  });
});
