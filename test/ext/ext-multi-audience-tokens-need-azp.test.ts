import t from 'tap';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { oidcIssuer } from '../helpers/oidc-issuer.js';

const CLIENT_ID = 'bastion-extension-client';

t.test('/ext/*: an ID token for several audiences counts only when its authorized party is this client', async (t) => {
  const idp = await oidcIssuer(t);
  const gw = await startTestGateway(t, { config: { oidcIssuers: [{ issuer: idp.url, client_id: CLIENT_ID, tenants: [{ hd: 'acme.com', tenant: 'acme' }] }], oidcJwksCooldownMs: 0 } });
  await gw.key('acme', { plan: 'enterprise' });
  await gw.services.storage.db.updateTable('tenants').set({ plan: 'enterprise', addons: JSON.stringify(['extension']) }).where('id', '=', 'acme').execute();
  const policy = async (claims: Record<string, unknown>) => call(`${gw.proxyUrl}/ext/policy`, { headers: { authorization: `Bearer ${await idp.sign({ sub: 'alice', hd: 'acme.com', ...claims })}` } });

  const cases: [string, Record<string, unknown>, number][] = [
    ['one audience, no azp', { aud: CLIENT_ID }, 200],
    ['one audience as a one-element array, no azp', { aud: [CLIENT_ID] }, 200],
    ['one audience, azp this client', { aud: CLIENT_ID, azp: CLIENT_ID }, 200],
    ['several audiences, azp this client', { aud: [CLIENT_ID, 'another-app'], azp: CLIENT_ID }, 200],
    ['several audiences, no azp (a token issued to another app that also names us)', { aud: [CLIENT_ID, 'another-app'] }, 401],
    ['several audiences, azp another app', { aud: ['another-app', CLIENT_ID], azp: 'another-app' }, 401],
    ['one audience, azp another app', { aud: CLIENT_ID, azp: 'another-app' }, 401],
    ['azp not a string', { aud: [CLIENT_ID, 'another-app'], azp: [CLIENT_ID] }, 401],
  ];
  for (const [name, claims, status] of cases) {
    const res = await policy(claims);
    t.equal(res.status, status, name);
    if (status === 401) t.match(res.headers['www-authenticate'], /error="invalid_token"/, `${name}: refused as an invalid token`);
  }
});
