import t from 'tap';
import { countWaitlist } from '../../src/storage/waitlist.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { PASSWORD, account, bearer, errorCodeOf } from '../helpers/portal.js';

interface Detail {
  detail: { loc: (string | number)[]; msg: string; type: string }[];
}

t.test('portal inputs are bounded, answered in the documented shapes', async (t) => {
  const gw = await startTestGateway(t);
  const portal = (path: string, init: Parameters<typeof call>[1] = {}) => call(`${gw.adminUrl}/portal${path}`, init);
  const nina = await account(gw.adminUrl, 'nina@example.com');

  t.test('registration refuses weak passwords and malformed input with 422', async (t) => {
    const cases: [string, Record<string, unknown>, (string | number)[], string][] = [
      ['too short', { email: 'a@example.com', password: 'short-pass1' }, ['body', 'password'], 'string_too_short'],
      ['too long', { email: 'a@example.com', password: 'x'.repeat(257) }, ['body', 'password'], 'string_too_long'],
      ['common', { email: 'a@example.com', password: 'qwerty123456' }, ['body', 'password'], 'value_error'],
      ['a common word dressed up', { email: 'a@example.com', password: 'P@ssw0rd2025!' }, ['body', 'password'], 'value_error'],
      ['repetitive', { email: 'a@example.com', password: 'abababababab' }, ['body', 'password'], 'value_error'],
      ['contains the e-mail', { email: 'margaret@example.com', password: 'margaret-is-great' }, ['body', 'password'], 'value_error'],
      ['not an e-mail', { email: 'not-an-email', password: PASSWORD }, ['body', 'email'], 'value_error'],
      ['unknown field', { email: 'a@example.com', password: PASSWORD, role: 'admin' }, ['body', 'role'], 'extra_forbidden'],
      ['display name too long', { email: 'a@example.com', password: PASSWORD, display_name: 'x'.repeat(129) }, ['body', 'display_name'], 'string_too_long'],
      ['missing password', { email: 'a@example.com' }, ['body', 'password'], 'missing'],
    ];
    for (const [name, body, loc, type] of cases) {
      const res = await portal('/auth/register', { body });
      t.equal(res.status, 422, name);
      t.match(res.json<Detail>().detail[0], { loc, type }, name);
      t.notOk(res.body.includes(String(body.password ?? '§')), `${name}: the password is not echoed`);
    }
  });

  t.test('a taken e-mail is 409 whatever its case, and leaves nothing behind', async (t) => {
    const tenantsBefore = (await gw.services.storage.db.selectFrom('tenants').selectAll().execute()).length;
    const res = await portal('/auth/register', { body: { email: 'NINA@example.com', password: 'another-Strong-pass-31' } });
    t.equal(res.status, 409);
    t.equal(errorCodeOf(res), 'BASTION_ERR_ACCOUNT_EXISTS');
    t.equal((await gw.services.storage.db.selectFrom('tenants').selectAll().execute()).length, tenantsBefore, 'no orphan tenant');
  });

  t.test('other bounded inputs', async (t) => {
    const shortCode = await portal('/auth/totp/complete', { body: { challenge_token: 'x', code: '12345' } });
    t.equal(shortCode.status, 422);
    t.same(shortCode.json<Detail>().detail[0].loc, ['body', 'code']);
    t.equal((await portal('/auth/login', { body: { email: 'nina@example.com', password: '' } })).status, 422);
    t.equal((await portal('/auth/login', { raw: '{"email":' })).status, 422, 'malformed JSON');
    t.equal((await portal('/auth/forgot-password', { body: { email: 'x'.repeat(250) + '@example.com' } })).status, 422);
    t.equal((await portal(`/keys/${'k'.repeat(41)}`, { method: 'DELETE', headers: bearer(nina.access) })).status, 422, 'path bounded');
  });

  t.test('PATCH /portal/me changes the profile; the e-mail is not patchable', async (t) => {
    const patch = await portal('/me', { method: 'PATCH', headers: bearer(nina.access), body: { display_name: 'Nina', company: 'Initech' } });
    t.equal(patch.status, 200);
    t.match(patch.json(), { display_name: 'Nina', company: 'Initech', email: 'nina@example.com' });
    t.match((await portal('/me', { method: 'PATCH', headers: bearer(nina.access), body: { company: null } })).json(), { display_name: 'Nina', company: null });
    t.equal((await portal('/me', { method: 'PATCH', headers: bearer(nina.access), body: { email: 'evil@example.com' } })).status, 422);
    t.equal((await portal('/me', { method: 'PATCH', headers: bearer(nina.access), body: {} })).status, 422);
    t.equal((await portal('/me', { method: 'PATCH', headers: bearer(nina.access), body: { display_name: '' } })).status, 422);
  });

  t.test('waitlist: public, validated, de-duplicated, limited per client IP', async (t) => {
    const join = (body: unknown) => portal('/waitlist', { body });
    const first = await join({ email: 'olga@example.com', company: 'Globex', use_case: 'screen support-bot prompts' });
    t.equal(first.status, 201);
    t.same(first.json(), { waitlisted: true });
    const again = await join({ email: 'OLGA@example.com' });
    t.equal(again.status, 201, 'a repeat looks exactly like a new signup');
    t.equal(again.body, first.body);
    t.equal(await countWaitlist(gw.services.storage.db), 1, 'stored once');
    t.equal((await join({ email: 'olga@example.com', use_case: 'x'.repeat(1001) })).status, 422);
    t.equal((await join({ email: 'nope' })).status, 422);
    for (const n of [1, 2, 3]) t.equal((await join({ email: `p${n}@example.com` })).status, 201);
    const limited = await join({ email: 'p4@example.com' });
    t.equal(limited.status, 429, 'five per hour per client IP');
    t.ok(Number(limited.headers['retry-after']) > 0);
  });

  t.test('without BASTION_MASTER_KEY two-factor setup fails clearly instead of storing plaintext', async (t) => {
    const res = await portal('/auth/totp/setup', { method: 'POST', headers: bearer(nina.access) });
    t.equal(res.status, 503);
    t.equal(errorCodeOf(res), 'BASTION_ERR_MASTER_KEY_MISSING');
    t.equal((await gw.services.storage.db.selectFrom('totp_secrets').selectAll().execute()).length, 0);
  });

  t.test('the admin OpenAPI document describes every portal and session route with its security', async (t) => {
    const doc = (await call(`${gw.adminUrl}/openapi.json`)).json<{
      paths: Record<string, Record<string, { security?: Record<string, unknown>[]; responses: Record<string, unknown> }>>;
      components: { securitySchemes: Record<string, unknown> };
    }>();
    const security = (path: string, method: string) => doc.paths[path]?.[method]?.security;
    for (const path of ['/portal/auth/register', '/portal/auth/login', '/portal/auth/totp/complete', '/portal/auth/refresh', '/portal/auth/logout',
      '/portal/auth/forgot-password', '/portal/auth/reset-password', '/portal/waitlist', '/auth/login', '/auth/signup', '/auth/logout']) {
      const op = Object.values(doc.paths[path] ?? {})[0];
      t.ok(op, `${path} documented`);
      t.notOk(op?.security, `${path} is public (SPEC §5 rule 6)`);
    }
    for (const [path, method] of [['/portal/me', 'get'], ['/portal/me', 'patch'], ['/portal/me/change-password', 'post'], ['/portal/keys', 'get'],
      ['/portal/keys', 'post'], ['/portal/keys/{key_id}', 'patch'], ['/portal/keys/{key_id}', 'delete'], ['/portal/stats/summary', 'get'],
      ['/portal/stats/daily', 'get'], ['/portal/stats/flags', 'get'], ['/portal/billing', 'get'], ['/portal/auth/totp/setup', 'post'],
      ['/portal/auth/totp/confirm', 'post'], ['/portal/auth/totp/disable', 'post'], ['/portal/auth/totp/status', 'get']]) {
      t.same(security(path, method), [{ bearer: [] }], `${method.toUpperCase()} ${path} needs the portal bearer`);
    }
    t.same(security('/auth/me', 'get'), [{ session: [] }]);
    t.same(security('/admin/billing/grant', 'post'), [{ adminKey: [] }]);
    t.same(security('/admin/billing/revoke', 'post'), [{ adminKey: [] }]);
    t.ok(doc.paths['/portal/stats/flags'].get.responses['403'], 'the entitlement is documented');
    t.ok(doc.components.securitySchemes.session);
  });
});
