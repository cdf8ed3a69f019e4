import t from 'tap';
import { changeEntitlements, ensureTenant } from '../../src/storage/tenants.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { MASTER_KEY, bearer, login, register } from '../helpers/portal.js';
import { agentKeys, entitledKey, limits, registerAgent } from '../agents/helpers.js';

// "invoice" with a right-to-left override reads "eciovni" reversed in a console or log viewer.
const SPOOFS = ['pay\u202Eeciovni', 'a\u202Ab', 'a\u202Bb', 'a\u202Cb', 'a\u202Db', 'a\u2066b', 'a\u2067b', 'a\u2068b', 'a\u2069b'];
// Unpaired surrogates can only be written as JSON escapes: the raw body keeps them.
const LONE = ['"bot \\ud800"', '"\\udc00bot"', '"a\\udbffb"'];

t.test('display names refuse bidi controls and unpaired surrogates with a 400 in the catalogue shape', async (t) => {
  const gw = await startTestGateway(t, { config: { masterKey: MASTER_KEY } });
  const headers = { 'x-api-key': await entitledKey(gw, 'acme') };
  const refused = (res: { status: number; json<T>(): T }, what: string) => {
    t.equal(res.status, 400, what);
    t.match(res.json(), { error: { code: 'BASTION_ERR_DISPLAY_NAME_INVALID', field: 'display_name' } }, what);
  };

  for (const name of SPOOFS) {
    const keys = agentKeys();
    refused(await registerAgent(gw.adminUrl, headers, { display_name: name, did: keys.did, limits: limits() }, keys.privateKey), `POST /agents ${JSON.stringify(name)}`);
  }
  const keys = agentKeys();
  const ok = await registerAgent(gw.adminUrl, headers, { display_name: 'Einkäufer 🤖 مشتری', did: keys.did, limits: limits() }, keys.privateKey);
  t.equal(ok.status, 201, 'letters of any script and emoji (paired surrogates) are fine');
  const id = ok.json<{ agent_id: string }>().agent_id;
  refused(await call(`${gw.adminUrl}/agents/${id}`, { method: 'PUT', headers, body: { display_name: SPOOFS[0] } }), 'PUT /agents/{id}');
  for (const raw of LONE) {
    refused(await call(`${gw.adminUrl}/agents/${id}`, { method: 'PUT', headers, raw: `{"display_name":${raw}}` }), `PUT /agents/{id} ${raw}`);
  }

  refused(await call(`${gw.adminUrl}/portal/auth/register`, { raw: `{"email":"mallory@example.com","password":"correct horse battery staple","display_name":"a\\u202Eb"}` }), 'portal register');
  await register(gw.adminUrl, 'erin@example.com');
  const { access } = await login(gw.adminUrl, 'erin@example.com');
  refused(await call(`${gw.adminUrl}/portal/me`, { method: 'PATCH', headers: bearer(access), body: { display_name: 'x\u2067y' } }), 'PATCH /portal/me');
  refused(await call(`${gw.adminUrl}/portal/me`, { method: 'PATCH', headers: bearer(access), raw: '{"display_name":"\\ud83d"}' }), 'PATCH /portal/me lone surrogate');
  await ensureTenant(gw.services.storage.db, 'initech', 'enterprise');
  await changeEntitlements(gw.services.storage.db, 'initech', () => ({ plan: 'enterprise', addons: ['tunnels'] }));
  const syndicate = { 'x-api-key': await gw.key('initech', { plan: 'enterprise' }) };
  refused(await call(`${gw.adminUrl}/syndicates/register`, { headers: syndicate, body: { display_name: 'Acme\u202E' } }), 'POST /syndicates/register');
});
