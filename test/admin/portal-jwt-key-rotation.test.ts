import { createHmac } from 'node:crypto';
import t from 'tap';
import { sqliteUrl } from '../helpers/backends.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { account, bearer, login } from '../helpers/portal.js';

const OLD = 'old-signing-secret-0123456789abcdef-OLD';
const NEW = 'new-signing-secret-0123456789abcdef-NEW';

t.test('BASTION_JWT_SECRET rotation: prepend the new secret, drop the old one after an access-token lifetime', async (t) => {
  const databaseUrl = sqliteUrl(t);
  const before = await startTestGateway(t, { databaseUrl, config: { jwtSecrets: [OLD] } });
  const signedOld = (await account(before.adminUrl, 'pat@example.com')).access;
  const me = (gw: { adminUrl: string }, token: string) => call(`${gw.adminUrl}/portal/me`, { headers: bearer(token) });

  const during = await startTestGateway(t, { databaseUrl, config: { jwtSecrets: [NEW, OLD] } });
  t.equal((await me(during, signedOld)).status, 200, 'tokens signed with the old secret still verify');
  const signedNew = (await login(during.adminUrl, 'pat@example.com')).access;
  t.equal((await me(before, signedNew)).status, 401, 'new tokens are signed with the new secret');

  const after = await startTestGateway(t, { databaseUrl, config: { jwtSecrets: [NEW] } });
  t.equal((await me(after, signedNew)).status, 200);
  t.equal((await me(after, signedOld)).status, 401, 'the old secret no longer verifies anything');

  t.test('tampered or unsigned tokens are refused', async (t) => {
    const [header, payload] = signedNew.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, tid: 'tn_someoneelse' })).toString('base64url');
    t.equal((await me(after, `${header}.${forged}.${signedNew.split('.')[2]}`)).status, 401, 'changed claims');
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    t.equal((await me(after, `${none}.${payload}.`)).status, 401, 'alg none');
    const guessed = createHmac('sha256', 'guess').update(`${header}.${payload}`).digest('base64url');
    t.equal((await me(after, `${header}.${payload}.${guessed}`)).status, 401, 'wrong key');
  });
});
