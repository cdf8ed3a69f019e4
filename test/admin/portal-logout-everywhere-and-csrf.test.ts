import t from 'tap';
import { databaseUrl, needs, type StorageBackend } from '../helpers/backends.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { PASSWORD, account, bearer, cookieValue, errorCodeOf, login } from '../helpers/portal.js';

for (const backend of ['sqlite', 'postgres'] as StorageBackend[]) {
  t.test(`${backend}: POST /portal/auth/logout-all ends every login of the account, and only of it`, backend === 'postgres' ? await needs('postgres') : {}, async (t) => {
    const gw = await startTestGateway(t, { databaseUrl: await databaseUrl(t, backend) });
    const portal = (path: string, init: Parameters<typeof call>[1] = {}) => call(`${gw.adminUrl}/portal${path}`, init);
    const laptop = await account(gw.adminUrl, 'carol@example.com');
    const phone = await login(gw.adminUrl, 'carol@example.com');
    const browser = await call(`${gw.adminUrl}/auth/login`, { body: { email: 'carol@example.com', password: PASSWORD } });
    const sessionCookie = `bastion_session=${cookieValue(browser, 'bastion_session')}`;
    const neighbour = await account(gw.adminUrl, 'dave@example.com');

    const anonymous = await portal('/auth/logout-all', { method: 'POST' });
    t.equal(anonymous.status, 401, 'without a bearer token → 401');
    t.equal(errorCodeOf(anonymous), 'BASTION_ERR_PORTAL_UNAUTHENTICATED');
    const cookieOnly = await portal('/auth/logout-all', { method: 'POST', headers: { cookie: `service_refresh=${phone.refresh}` } });
    t.equal(cookieOnly.status, 401, 'the refresh cookie alone is not enough (a forged form cannot log anyone out everywhere)');

    const out = await portal('/auth/logout-all', { method: 'POST', headers: bearer(laptop.access) });
    t.equal(out.status, 204);
    t.match(out.headers['set-cookie'], /service_refresh=;.*Max-Age=0|service_refresh=;.*Expires=Thu, 01 Jan 1970/, 'the cookie is cleared');

    for (const [name, login] of [['this login', laptop], ['another device', phone]] as const) {
      t.equal((await portal('/me', { headers: bearer(login.access) })).status, 401, `${name}: its access token is refused at once`);
      const refresh = await portal('/auth/refresh', { method: 'POST', headers: { cookie: `service_refresh=${login.refresh}` } });
      t.equal(refresh.status, 401, `${name}: its refresh cookie no longer renews`);
      t.equal(errorCodeOf(refresh), 'BASTION_ERR_REFRESH_INVALID');
    }
    t.equal((await call(`${gw.adminUrl}/auth/me`, { headers: { cookie: sessionCookie } })).status, 401, 'the /auth browser session ended too');
    t.equal((await portal('/me', { headers: bearer(neighbour.access) })).status, 200, 'another account is untouched');

    const again = await login(gw.adminUrl, 'carol@example.com');
    t.equal((await portal('/me', { headers: bearer(again.access) })).status, 200, 'a new login works afterwards');
  });
}

t.test('cookie-authenticated posts from a browser need the console CSRF token', async (t) => {
  const gw = await startTestGateway(t);
  const portal = (path: string, init: Parameters<typeof call>[1] = {}) => call(`${gw.adminUrl}/portal${path}`, init);
  const page = await call(`${gw.adminUrl}/console/`);
  const token = /<meta name="csrf-token" content="([^"]+)">/.exec(page.body)![1];
  const secret = `service_csrf=${cookieValue(page, 'service_csrf')}`;
  let { refresh } = await account(gw.adminUrl, 'erin@example.com');
  const browser = { origin: gw.adminUrl, 'sec-fetch-site': 'same-origin' };

  const forged = await portal('/auth/refresh', { method: 'POST', headers: { ...browser, origin: 'https://evil.example', cookie: `service_refresh=${refresh}` } });
  t.equal(forged.status, 403, 'a cross-site post with the cookie and no token → 403');
  t.equal(errorCodeOf(forged), 'BASTION_ERR_CSRF_INVALID');
  const noToken = await portal('/auth/refresh', { method: 'POST', headers: { ...browser, cookie: `service_refresh=${refresh}; ${secret}` } });
  t.equal(noToken.status, 403, 'same-origin browser post without the token → 403');
  const wrong = await portal('/auth/refresh', { method: 'POST', headers: { ...browser, cookie: `service_refresh=${refresh}; ${secret}`, 'x-csrf-token': token.slice(0, -2) + 'xx' } });
  t.equal(wrong.status, 403, 'a token that does not match the secret → 403');
  const noSecret = await portal('/auth/refresh', { method: 'POST', headers: { ...browser, cookie: `service_refresh=${refresh}`, 'x-csrf-token': token } });
  t.equal(noSecret.status, 403, 'a token without its secret cookie → 403');
  const logoutForged = await portal('/auth/logout', { method: 'POST', headers: { ...browser, origin: 'https://evil.example', cookie: `service_refresh=${refresh}` } });
  t.equal(logoutForged.status, 403, 'a forged logout is refused too');

  const ok = await portal('/auth/refresh', { method: 'POST', headers: { ...browser, cookie: `service_refresh=${refresh}; ${secret}`, 'x-csrf-token': token } });
  t.equal(ok.status, 200, 'the console (token + secret) refreshes');
  refresh = cookieValue(ok, 'service_refresh')!;
  const api = await portal('/auth/refresh', { method: 'POST', headers: { cookie: `service_refresh=${refresh}` } });
  t.equal(api.status, 200, 'a non-browser API client (no Origin, no Sec-Fetch-Site) keeps the plain JSON API');
});
