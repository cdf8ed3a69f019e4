import t from 'tap';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { MASTER_KEY, PASSWORD, bearer, cookieValue, errorCodeOf, setCookie, totpCode } from '../helpers/portal.js';

const APP = 'https://app.example.com';
const EVIL = 'https://evil.example.net';

t.test('/auth/* sessions behind credential-aware CORS', async (t) => {
  const gw = await startTestGateway(t, { config: { corsOrigins: [APP], masterKey: MASTER_KEY } });
  const auth = (path: string, init: Parameters<typeof call>[1] = {}) => call(`${gw.adminUrl}/auth${path}`, init);

  const signup = await auth('/signup', { body: { email: 'mia@example.com', password: PASSWORD, company: 'Acme' } });
  t.equal(signup.status, 200);
  t.match(signup.json(), { account_id: /^acc_/, tenant_id: /^tn_/, email: 'mia@example.com' });
  const cookie = setCookie(signup, 'bastion_session')!;
  for (const attribute of [/HttpOnly/, /Secure/, /SameSite=Strict/, /Path=\/auth/, /Max-Age=43200/]) t.match(cookie, attribute);
  const session = { cookie: `bastion_session=${cookieValue(signup, 'bastion_session')}` };

  t.test('/auth/me answers the session user; no cookie or a forged one is 401', async (t) => {
    const me = await auth('/me', { headers: session });
    t.equal(me.status, 200);
    t.match(me.json(), { email: 'mia@example.com', company: 'Acme', plan: 'free' });
    t.equal((await auth('/me')).status, 401);
    const forged = await auth('/me', { headers: { cookie: 'bastion_session=bss_' + 'A'.repeat(43) } });
    t.equal(forged.status, 401);
    t.equal(errorCodeOf(forged), 'BASTION_ERR_SESSION_REQUIRED');
  });

  t.test('an allowed Origin gets the credentialed CORS headers', async (t) => {
    const me = await auth('/me', { headers: { ...session, origin: APP } });
    t.equal(me.status, 200);
    t.equal(me.headers['access-control-allow-origin'], APP);
    t.equal(me.headers['access-control-allow-credentials'], 'true');
    t.match(me.headers.vary, /Origin/);

    const preflight = await auth('/me', { method: 'OPTIONS', headers: { origin: APP, 'access-control-request-method': 'GET' } });
    t.equal(preflight.status, 204);
    t.equal(preflight.headers['access-control-allow-origin'], APP);
    t.equal(preflight.headers['access-control-allow-credentials'], 'true');
    t.match(preflight.headers['access-control-allow-methods'], /GET/);
  });

  t.test('any other Origin is 403 without CORS headers, preflight included', async (t) => {
    for (const origin of [EVIL, 'null', 'http://app.example.com', `${APP}:8443`]) {
      const me = await auth('/me', { headers: { ...session, origin } });
      t.equal(me.status, 403, origin);
      t.equal(errorCodeOf(me), 'BASTION_ERR_ORIGIN_FORBIDDEN');
      t.notOk(me.headers['access-control-allow-origin']);
    }
    const preflight = await auth('/me', { method: 'OPTIONS', headers: { origin: EVIL, 'access-control-request-method': 'GET' } });
    t.equal(preflight.status, 403);
    t.notOk(preflight.headers['access-control-allow-origin']);
    const login = await auth('/login', { headers: { origin: EVIL }, body: { email: 'mia@example.com', password: PASSWORD } });
    t.equal(login.status, 403, 'a foreign page cannot post a login either');
    t.notOk(login.headers['set-cookie']);
  });

  t.test('logout ends the session server-side and clears the cookie', async (t) => {
    const login = await auth('/login', { body: { email: 'mia@example.com', password: PASSWORD } });
    t.equal(login.status, 200);
    const second = { cookie: `bastion_session=${cookieValue(login, 'bastion_session')}` };
    const out = await auth('/logout', { method: 'POST', headers: second });
    t.equal(out.status, 200);
    t.same(out.json(), { logged_out: true });
    t.match(setCookie(out, 'bastion_session'), /Expires=Thu, 01 Jan 1970|Max-Age=0/);
    t.equal((await auth('/me', { headers: second })).status, 401, 'the old cookie no longer works even if kept');
    t.equal((await auth('/me', { headers: session })).status, 200, 'other sessions are untouched');
  });

  t.test('with two-factor on, the session login needs the code', async (t) => {
    const portalLogin = await call(`${gw.adminUrl}/portal/auth/login`, { body: { email: 'mia@example.com', password: PASSWORD } });
    const access = portalLogin.json<{ access_token: string }>().access_token;
    const { secret } = (await call(`${gw.adminUrl}/portal/auth/totp/setup`, { method: 'POST', headers: bearer(access) })).json<{ secret: string }>();
    await call(`${gw.adminUrl}/portal/auth/totp/confirm`, { headers: bearer(access), body: { code: await totpCode(secret) } });
    const without = await auth('/login', { body: { email: 'mia@example.com', password: PASSWORD } });
    t.equal(without.status, 401);
    t.equal(errorCodeOf(without), 'BASTION_ERR_TOTP_REQUIRED');
    t.notOk(without.headers['set-cookie']);
    const withCode = await auth('/login', { body: { email: 'mia@example.com', password: PASSWORD, totp_code: await totpCode(secret, 1) } });
    t.equal(withCode.status, 200);
    t.ok(cookieValue(withCode, 'bastion_session'));
  });
});
