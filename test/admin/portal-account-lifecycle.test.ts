import t from 'tap';
import { databaseUrl, needs, type StorageBackend } from '../helpers/backends.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { MASTER_KEY, PASSWORD, bearer, cookieValue, errorCodeOf, setCookie, totpCode } from '../helpers/portal.js';

interface Tokens {
  access_token: string;
  token_type: string;
  expires_in: number;
}

for (const backend of ['sqlite', 'postgres'] as StorageBackend[]) {
  t.test(`${backend}: register, log in, rotate, two-factor, keys on the data plane`, backend === 'postgres' ? await needs('postgres') : {}, async (t) => {
    const gw = await startTestGateway(t, { databaseUrl: await databaseUrl(t, backend), config: { masterKey: MASTER_KEY } });
    const portal = (path: string, init: Parameters<typeof call>[1] = {}) => call(`${gw.adminUrl}/portal${path}`, init);
    const withCookie = (value: string) => ({ cookie: `service_refresh=${value}` });
    const passwordLogin = () => portal('/auth/login', { body: { email: 'alice@example.com', password: PASSWORD } });

    const reg = await portal('/auth/register', { body: { email: 'Alice@Example.com', password: PASSWORD, display_name: 'Alice' } });
    t.equal(reg.status, 201, 'register → 201');
    const { account_id, tenant_id } = reg.json<{ account_id: string; tenant_id: string }>();
    t.match(account_id, /^acc_/);
    t.match(tenant_id, /^tn_/);

    // Log in: token object plus the refresh cookie with every required attribute.
    const first = await passwordLogin();
    t.equal(first.status, 200);
    const firstTokens = first.json<Tokens>();
    t.equal(firstTokens.token_type, 'bearer');
    t.equal(firstTokens.expires_in, 900);
    const cookie = setCookie(first, 'service_refresh')!;
    t.match(cookie, /HttpOnly/);
    t.match(cookie, /Secure/);
    t.match(cookie, /SameSite=Strict/);
    t.match(cookie, /Path=\/portal\/auth/);
    t.equal(first.headers['cache-control'], 'no-store');

    const me = await portal('/me', { headers: bearer(firstTokens.access_token) });
    t.equal(me.status, 200);
    t.match(me.json(), { account_id, tenant_id, email: 'alice@example.com', display_name: 'Alice', plan: 'free', totp_enabled: false });

    t.test('refresh rotates the cookie; reusing the old one revokes the whole family', async (t) => {
      const r1 = cookieValue(first, 'service_refresh')!;
      const rotated = await portal('/auth/refresh', { method: 'POST', headers: withCookie(r1) });
      t.equal(rotated.status, 200);
      const r2 = cookieValue(rotated, 'service_refresh')!;
      t.ok(r2);
      t.not(r2, r1, 'a new refresh token');
      const access2 = rotated.json<Tokens>().access_token;
      t.equal((await portal('/me', { headers: bearer(access2) })).status, 200);

      const reuse = await portal('/auth/refresh', { method: 'POST', headers: withCookie(r1) });
      t.equal(reuse.status, 401);
      t.equal(errorCodeOf(reuse), 'BASTION_ERR_REFRESH_INVALID');
      t.equal((await portal('/auth/refresh', { method: 'POST', headers: withCookie(r2) })).status, 401, 'the newest token of the family is dead too');
      t.equal((await portal('/me', { headers: bearer(access2) })).status, 401, 'and so are its access tokens');
      t.equal((await portal('/me', { headers: bearer(firstTokens.access_token) })).status, 401);
    });

    let secret = '';
    t.test('TOTP setup and confirm; logout revokes the login', async (t) => {
      const res = await passwordLogin();
      const access = res.json<Tokens>().access_token;
      const refresh = cookieValue(res, 'service_refresh')!;
      const setup = await portal('/auth/totp/setup', { method: 'POST', headers: bearer(access) });
      t.equal(setup.status, 200);
      ({ secret } = setup.json<{ secret: string }>());
      t.match(setup.json<{ otpauth_uri: string }>().otpauth_uri, /^otpauth:\/\/totp\/Bastion:alice%40example\.com\?secret=[A-Z2-7]+&issuer=Bastion$/);
      const stored = await gw.services.storage.db.selectFrom('totp_secrets').selectAll().execute();
      t.notOk(JSON.stringify(stored).includes(secret), 'the secret is sealed at rest');

      t.equal((await portal('/auth/totp/status', { headers: bearer(access) })).json().enabled, false, 'not on before confirm');
      const confirm = await portal('/auth/totp/confirm', { headers: bearer(access), body: { code: await totpCode(secret) } });
      t.equal(confirm.status, 200);
      t.same(confirm.json(), { enabled: true });
      t.equal((await portal('/auth/totp/status', { headers: bearer(access) })).json().enabled, true);

      const logout = await portal('/auth/logout', { method: 'POST', headers: withCookie(refresh) });
      t.equal(logout.status, 204);
      t.match(setCookie(logout, 'service_refresh'), /Expires=Thu, 01 Jan 1970|Max-Age=0/, 'cookie cleared');
      t.equal((await portal('/me', { headers: bearer(access) })).status, 401, 'the access token of a logged-out family is refused');
      t.equal((await portal('/auth/refresh', { method: 'POST', headers: withCookie(refresh) })).status, 401);
    });

    let session = { access: '', refresh: '' };
    t.test('with TOTP on, login asks for a code; a code is accepted once', async (t) => {
      const step1 = await passwordLogin();
      t.equal(step1.status, 200);
      const { totp_required, challenge_token } = step1.json<{ totp_required: boolean; challenge_token: string }>();
      t.equal(totp_required, true);
      t.notOk(step1.json().access_token, 'no access token yet');
      t.notOk(step1.headers['set-cookie'], 'no cookie yet');
      t.equal((await portal('/me', { headers: bearer(challenge_token) })).status, 401, 'a challenge is not an access token');

      const bad = await portal('/auth/totp/complete', { body: { challenge_token, code: '000000' } });
      t.equal(bad.status, 401);
      t.equal(errorCodeOf(bad), 'BASTION_ERR_INVALID_TOTP');

      // The confirm above used the current step; the next step is still inside the tolerance.
      const code = await totpCode(secret, 1);
      const done = await portal('/auth/totp/complete', { body: { challenge_token, code } });
      t.equal(done.status, 200);
      session = { access: done.json<Tokens>().access_token, refresh: cookieValue(done, 'service_refresh')! };
      t.ok(session.refresh, 'the refresh cookie comes with the full token');
      t.equal((await portal('/me', { headers: bearer(session.access) })).json().totp_enabled, true);

      const again = (await passwordLogin()).json<{ challenge_token: string }>();
      const replay = await portal('/auth/totp/complete', { body: { challenge_token: again.challenge_token, code } });
      t.equal(replay.status, 401, 'a replayed code fails');
      t.equal(errorCodeOf(replay), 'BASTION_ERR_INVALID_TOTP');
      const reuseChallenge = await portal('/auth/totp/complete', { body: { challenge_token, code } });
      t.equal(reuseChallenge.status, 401, 'a completed challenge cannot be completed again');
    });

    t.test('a key created in the portal works on the data plane until it is deleted', async (t) => {
      const rotated = await portal('/auth/refresh', { method: 'POST', headers: withCookie(session.refresh) });
      t.equal(rotated.status, 200, 'refresh works after a two-factor login');
      const auth = bearer(rotated.json<Tokens>().access_token);

      const created = await portal('/keys', { headers: auth, body: { name: 'ci' } });
      t.equal(created.status, 201);
      const key = created.json<{ key_id: string; key: string; prefix: string; rate_per_minute: number; name: string }>();
      t.match(key.key, /^bst_[0-9A-Za-z]{43}$/);
      t.equal(key.prefix, key.key.slice(0, 10));
      t.equal(key.rate_per_minute, 60, 'the plan default');
      const listed = (await portal('/keys', { headers: auth })).json<{ keys: { key_id: string; key?: string }[] }>().keys;
      t.same(listed.map((k) => k.key_id), [key.key_id]);
      t.notOk(listed[0].key, 'the full key is shown once only');

      const health = await call(`${gw.proxyUrl}/health`, { headers: { 'x-api-key': key.key } });
      t.equal(health.status, 200);
      t.equal(health.json().tenant_id, tenant_id);

      const del = await portal(`/keys/${key.key_id}`, { method: 'DELETE', headers: auth });
      t.equal(del.status, 204);
      const after = await call(`${gw.proxyUrl}/health`, { headers: { 'x-api-key': key.key } });
      t.equal(after.status, 401, 'the deleted key fails on the next request');
      t.equal(after.headers['www-authenticate'], 'ApiKey');
      t.equal((await portal(`/keys/${key.key_id}`, { method: 'DELETE', headers: auth })).status, 404);
    });

    t.test('disabling two-factor needs a fresh, current code', async (t) => {
      await portal('/auth/register', { body: { email: 'zoe@example.com', password: PASSWORD } });
      const auth = bearer((await portal('/auth/login', { body: { email: 'zoe@example.com', password: PASSWORD } })).json<Tokens>().access_token);
      t.equal(errorCodeOf(await portal('/auth/totp/disable', { headers: auth, body: { code: '123456' } })), 'BASTION_ERR_TOTP_NOT_ENABLED');
      t.equal(errorCodeOf(await portal('/auth/totp/confirm', { headers: auth, body: { code: '123456' } })), 'BASTION_ERR_TOTP_NOT_SET_UP');
      const zoeSecret = (await portal('/auth/totp/setup', { method: 'POST', headers: auth })).json<{ secret: string }>().secret;
      const code = await totpCode(zoeSecret);
      t.equal((await portal('/auth/totp/confirm', { headers: auth, body: { code } })).status, 200);
      t.equal(errorCodeOf(await portal('/auth/totp/setup', { method: 'POST', headers: auth })), 'BASTION_ERR_TOTP_ALREADY_ENABLED');
      t.equal(errorCodeOf(await portal('/auth/totp/disable', { headers: auth, body: { code } })), 'BASTION_ERR_INVALID_TOTP', 'the confirm code cannot be replayed');
      const off = await portal('/auth/totp/disable', { headers: auth, body: { code: await totpCode(zoeSecret, 1) } });
      t.same(off.json(), { enabled: false });
      t.equal((await portal('/auth/login', { body: { email: 'zoe@example.com', password: PASSWORD } })).json<Tokens>().token_type, 'bearer', 'login no longer asks for a code');
    });

    t.test('nothing secret reached the logs', async (t) => {
      t.notOk(gw.logs.text.includes(PASSWORD));
      t.notOk(gw.logs.text.includes(secret));
      t.notOk(gw.logs.text.includes(session.refresh));
      t.notOk(gw.logs.text.includes('alice@example.com'));
    });
  });
}
