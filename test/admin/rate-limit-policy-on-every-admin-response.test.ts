import t, { type Test } from 'tap';
import { startTestGateway } from '../helpers/gateway.js';
import { call, type Reply } from '../helpers/http.js';
import { MASTER_KEY, PASSWORD, account, bearer } from '../helpers/portal.js';

const APP = 'https://app.example';

/** SPEC §8: RateLimit-Policy on every response; without consumed counters, only the limit spellings go with it. */
function assertPolicyOnly(t: Test, res: Reply, policy: RegExp, limit: string): void {
  t.match(res.headers['ratelimit-policy'], policy, `RateLimit-Policy on a ${res.status}`);
  t.equal(res.headers['ratelimit-limit'], limit);
  t.equal(res.headers['x-ratelimit-limit'], limit);
  t.notOk(res.headers.ratelimit, 'no counters: a success says nothing about the attempts left');
  t.notOk(res.headers['ratelimit-remaining']);
}

t.test('RateLimit-Policy is on every admin-listener response, not only the 429s (issue 10, defect 9)', async (t) => {
  const gw = await startTestGateway(t, { config: { corsOrigins: [APP], masterKey: MASTER_KEY } });
  const admin = gw.adminUrl;

  t.test('portal routes with an attempt window publish that window', async (t) => {
    const register = await call(`${admin}/portal/auth/register`, { body: { email: 'pol-a@example.com', password: PASSWORD } });
    t.equal(register.status, 201);
    assertPolicyOnly(t, register, /^"register-per-ip";q=20;w=3600$/, '20');
    const login = await call(`${admin}/portal/auth/login`, { body: { email: 'pol-a@example.com', password: PASSWORD } });
    t.equal(login.status, 200);
    assertPolicyOnly(t, login, /^"login-per-ip";q=20;w=60$/, '20');
    const wrong = await call(`${admin}/portal/auth/login`, { body: { email: 'pol-a@example.com', password: 'not-the-password-at-all' } });
    t.equal(wrong.status, 401);
    assertPolicyOnly(t, wrong, /^"login-per-ip";q=20;w=60$/, '20');
  });

  t.test('authenticated portal routes publish the tenant plan\'s policies', async (t) => {
    const user = await account(admin, 'pol-b@example.com');
    for (const path of ['/portal/me', '/portal/keys', '/portal/billing']) {
      const res = await call(`${admin}${path}`, { headers: bearer(user.access) });
      t.equal(res.status, 200, path);
      assertPolicyOnly(t, res, /^"requests-per-minute";q=60;w=60, "requests-per-month";q=1000;w=\d+$/, '60');
    }
    const unauthenticated = await call(`${admin}/portal/me`);
    t.equal(unauthenticated.status, 401);
    assertPolicyOnly(t, unauthenticated, /^"requests-per-minute";q=60;w=60$/, '60');
  });

  t.test('/auth session routes, validation errors and unknown routes publish a policy too', async (t) => {
    const signup = await call(`${admin}/auth/signup`, { body: { email: 'pol-c@example.com', password: PASSWORD }, headers: { origin: APP } });
    t.equal(signup.status, 200);
    assertPolicyOnly(t, signup, /^"register-per-ip";q=20;w=3600$/, '20');
    const me = await call(`${admin}/auth/me`);
    t.equal(me.status, 401);
    assertPolicyOnly(t, me, /"requests-per-minute";q=60;w=60/, '60');
    const logout = await call(`${admin}/auth/logout`, { method: 'POST' });
    t.equal(logout.status, 200);
    assertPolicyOnly(t, logout, /"requests-per-minute"/, '60');
    const invalid = await call(`${admin}/auth/login`, { body: { email: 42 } });
    t.equal(invalid.status, 422);
    t.ok(invalid.headers['ratelimit-policy'], 'on a 422');
    const missing = await call(`${admin}/portal/nope`);
    t.equal(missing.status, 404);
    t.ok(missing.headers['ratelimit-policy'], 'on a 404');
  });

  t.test('a 429 from an attempt window keeps its counters and Retry-After', async (t) => {
    let last: Reply | undefined;
    for (let i = 0; i < 6; i++) last = await call(`${admin}/portal/waitlist`, { body: { email: `w${i}@example.com` } });
    t.equal(last!.status, 429);
    t.equal(last!.headers['ratelimit-policy'], '"waitlist-per-ip";q=5;w=3600');
    t.match(last!.headers.ratelimit, /^"waitlist-per-ip";r=0;t=\d+$/);
    t.ok(Number(last!.headers['retry-after']) > 0);
  });
});
