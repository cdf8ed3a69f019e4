import t from 'tap';
import { databaseUrl, needs, type StorageBackend } from '../helpers/backends.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call, type Reply } from '../helpers/http.js';
import { policies } from '../helpers/ratelimit.js';
import { MASTER_KEY, PASSWORD, account, bearer, errorCodeOf, totpCode } from '../helpers/portal.js';

const WRONG = 'definitely-not-it-0';

for (const backend of ['sqlite', 'postgres'] as StorageBackend[]) {
  t.test(`${backend}: repeated failures lock the account, known or not`, backend === 'postgres' ? await needs('postgres') : {}, async (t) => {
    // trustProxy lets each phase come from its own client address, so the per-IP window (20/min) stays out of the way
    // and the account lock is shown to follow the account, not the address.
    const gw = await startTestGateway(t, { databaseUrl: await databaseUrl(t, backend), config: { trustProxy: true } });
    let ip = '198.51.100.1';
    const login = (email: string, password: string) =>
      call(`${gw.adminUrl}/portal/auth/login`, { body: { email, password }, headers: { 'x-forwarded-for': ip } });
    await account(gw.adminUrl, 'frank@example.com');

    const known: Reply[] = [];
    const unknown: Reply[] = [];
    for (let i = 0; i < 5; i++) {
      known.push(await login('frank@example.com', WRONG));
      unknown.push(await login('ghost@example.com', WRONG));
    }
    for (const res of [...known, ...unknown]) {
      t.equal(res.status, 401);
      t.equal(errorCodeOf(res), 'BASTION_ERR_INVALID_CREDENTIALS');
    }
    t.equal(known[0].body, unknown[0].body, 'a wrong password and an unknown e-mail get the same answer');

    ip = '198.51.100.2';
    const locked = await login('frank@example.com', PASSWORD);
    t.equal(locked.status, 429, 'locked: even the right password is refused');
    t.equal(errorCodeOf(locked), 'BASTION_ERR_ACCOUNT_LOCKED');
    t.ok(Number(locked.headers['retry-after']) > 0 && Number(locked.headers['retry-after']) <= 900, 'Retry-After names the end of the lock');
    const ghost = await login('ghost@example.com', WRONG);
    t.equal(ghost.status, 429, 'an unknown e-mail locks the same way');
    t.equal(ghost.body.replace(/\d+/g, ''), locked.body.replace(/\d+/g, ''));

    const session = await call(`${gw.adminUrl}/auth/login`, { body: { email: 'frank@example.com', password: PASSWORD }, headers: { 'x-forwarded-for': ip } });
    t.equal(session.status, 429, 'the lock covers the session login too');

    // A success before the limit forgets earlier failures.
    ip = '198.51.100.3';
    await account(gw.adminUrl, 'grace@example.com');
    for (let i = 0; i < 4; i++) await login('grace@example.com', WRONG);
    t.equal((await login('grace@example.com', PASSWORD)).status, 200);
    for (let i = 0; i < 4; i++) t.equal((await login('grace@example.com', WRONG)).status, 401);
    t.equal((await login('grace@example.com', PASSWORD)).status, 200, 'four more failures do not lock after a success');
  });
}

t.test('per-client-IP attempt windows answer a clear 429 with Retry-After', async (t) => {
  const gw = await startTestGateway(t);
  const statuses: number[] = [];
  let last: Reply | undefined;
  // 20 logins per minute per IP (config/portal.json); distinct e-mails so no account lockout interferes.
  for (let i = 0; i < 21; i++) {
    last = await call(`${gw.adminUrl}/portal/auth/login`, { body: { email: `user${i}@example.com`, password: WRONG } });
    statuses.push(last.status);
  }
  t.same(statuses.slice(0, 20), Array(20).fill(401));
  t.equal(last!.status, 429);
  t.equal(errorCodeOf(last!), 'BASTION_ERR_TOO_MANY_ATTEMPTS');
  t.ok(Number(last!.headers['retry-after']) > 0);
  t.same(policies(last!.headers['ratelimit-policy']).get('login-per-ip'), { q: 20, w: 60 });
  t.equal(policies(last!.headers.ratelimit).get('login-per-ip')?.r, 0);
});

t.test('wrong TOTP codes lock two-factor; a challenge allows a few attempts only', async (t) => {
  const gw = await startTestGateway(t, { config: { masterKey: MASTER_KEY } });
  const portal = (path: string, init: Parameters<typeof call>[1] = {}) => call(`${gw.adminUrl}/portal${path}`, init);
  const heidi = await account(gw.adminUrl, 'heidi@example.com');
  const { secret } = (await portal('/auth/totp/setup', { method: 'POST', headers: bearer(heidi.access) })).json<{ secret: string }>();
  t.equal((await portal('/auth/totp/confirm', { headers: bearer(heidi.access), body: { code: await totpCode(secret) } })).status, 200);

  const challenge = async () =>
    (await portal('/auth/login', { body: { email: 'heidi@example.com', password: PASSWORD } })).json<{ challenge_token: string }>().challenge_token;
  const wrongCode = async () => ((Number(await totpCode(secret, 1)) + 500_000) % 1_000_000).toString().padStart(6, '0');

  const c1 = await challenge();
  const answers: string[] = [];
  for (let i = 0; i < 5; i++) answers.push(errorCodeOf(await portal('/auth/totp/complete', { body: { challenge_token: c1, code: await wrongCode() } }))!);
  t.same(answers, Array(5).fill('BASTION_ERR_INVALID_TOTP'));
  const used = await portal('/auth/totp/complete', { body: { challenge_token: c1, code: await totpCode(secret, 1) } });
  t.equal(errorCodeOf(used), 'BASTION_ERR_CHALLENGE_INVALID', 'the challenge is used up after five attempts');

  const lockedOut = await portal('/auth/totp/complete', { body: { challenge_token: await challenge(), code: await totpCode(secret, 1) } });
  t.equal(lockedOut.status, 429, 'five wrong codes lock two-factor for the account');
  t.equal(errorCodeOf(lockedOut), 'BASTION_ERR_ACCOUNT_LOCKED');
});
