import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, decodeJwt } from 'jose';
import t from 'tap';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { MASTER_KEY, PASSWORD, account, bearer, errorCodeOf, totpCode } from '../helpers/portal.js';

// A known signing secret lets the test sign tokens exactly as an attacker holding the key (or a buggy issuer) would:
// the signature is right, only the claims differ.
const SECRET = 'claims-test-signing-secret-0123456789abcdef';
const KEY = new Uint8Array(Buffer.from(SECRET, 'utf8'));
const KID = createHash('sha256').update(KEY).digest('hex').slice(0, 16);
const TTL = 900;

type Claims = Record<string, unknown>;

/** Signs `claims` as given (no claim is added), with the gateway's key and key id. */
const sign = (claims: Claims) => new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: KID }).sign(KEY);
const without = (claims: Claims, name: string) => Object.fromEntries(Object.entries(claims).filter(([k]) => k !== name));

t.test('a token signed with the right key is accepted only with exp, iat, aud, iss (and the right aud/iss)', async (t) => {
  const gw = await startTestGateway(t, { config: { jwtSecrets: [SECRET], masterKey: MASTER_KEY, accessTokenTtlSeconds: TTL } });
  const me = (token: string) => call(`${gw.adminUrl}/portal/me`, { headers: bearer(token) });

  t.test('access tokens', async (t) => {
    const { access } = await account(gw.adminUrl, 'claims@example.com');
    t.equal((await me(access)).status, 200, 'a normal login still works');
    const issued = decodeJwt(access);
    for (const claim of ['exp', 'iat', 'aud', 'iss', 'sub', 'jti']) t.ok(issued[claim] !== undefined, `the gateway issues ${claim}`);
    t.equal(issued.exp! - issued.iat!, TTL, 'issued for the configured lifetime');

    const now = Math.floor(Date.now() / 1000);
    const full: Claims = { ...issued, iat: now, exp: now + 60, jti: randomBytes(8).toString('hex') };
    t.equal((await me(await sign(full))).status, 200, 'control: the same claims re-signed by the test verify');

    const refused: [string, Claims][] = [
      ['no exp (a token that never expires)', without(full, 'exp')],
      ['no iat', without(full, 'iat')],
      ['no aud', without(full, 'aud')],
      ['no iss', without(full, 'iss')],
      ['no sub', without(full, 'sub')],
      ['no jti', without(full, 'jti')],
      ['aud of a TOTP challenge', { ...full, aud: 'bastion:totp-challenge' }],
      ['aud of another service', { ...full, aud: 'someone-else' }],
      ['foreign iss', { ...full, iss: 'https://issuer.example' }],
      ['expired', { ...full, iat: now - 3600, exp: now - 1800 }],
      ['lifetime longer than the gateway issues', { ...full, exp: now + 10 * 365 * 86400 }],
      ['issued in the future', { ...full, iat: now + 3600, exp: now + 3600 + 60 }],
      ['exp is not a number', { ...full, exp: 'never' }],
    ];
    for (const [name, claims] of refused) {
      const res = await me(await sign(claims));
      t.equal(res.status, 401, name);
      t.equal(errorCodeOf(res), 'BASTION_ERR_PORTAL_UNAUTHENTICATED', `${name}: catalogue shape`);
      t.match(res.json(), { error: { message: String } }, `${name}: catalogue message`);
      t.match(res.headers['www-authenticate'], /error="invalid_token"/, name);
    }
  });

  t.test('TOTP challenges', async (t) => {
    const portal = (path: string, init: Parameters<typeof call>[1] = {}) => call(`${gw.adminUrl}/portal${path}`, init);
    const { access, account_id } = await account(gw.adminUrl, 'challenge@example.com');
    const secret = (await portal('/auth/totp/setup', { method: 'POST', headers: bearer(access) })).json<{ secret: string }>().secret;
    t.equal((await portal('/auth/totp/confirm', { headers: bearer(access), body: { code: await totpCode(secret) } })).status, 200);
    const step1 = await portal('/auth/login', { body: { email: 'challenge@example.com', password: PASSWORD } });
    const issued = decodeJwt(step1.json<{ challenge_token: string }>().challenge_token);
    for (const claim of ['exp', 'iat', 'aud', 'iss', 'sub', 'jti']) t.ok(issued[claim] !== undefined, `the gateway issues ${claim}`);
    t.equal(issued.sub, account_id);

    const code = await totpCode(secret, 1);
    const complete = async (claims: Claims) => portal('/auth/totp/complete', { body: { challenge_token: await sign(claims), code } });
    for (const claim of ['exp', 'iat', 'aud', 'iss']) {
      const res = await complete(without({ ...issued, jti: randomBytes(8).toString('hex') }, claim));
      t.equal(res.status, 401, `no ${claim}`);
      t.equal(errorCodeOf(res), 'BASTION_ERR_CHALLENGE_INVALID', `no ${claim}: catalogue shape`);
    }
    const asAccess = await complete({ ...issued, aud: 'bastion:portal', jti: randomBytes(8).toString('hex') });
    t.equal(asAccess.status, 401, 'an access-token audience is not a challenge');
    t.equal((await complete({ ...issued, jti: randomBytes(8).toString('hex') })).status, 200, 'control: a complete challenge logs in');
  });
});
