import t from 'tap';
import { needs, redisPrefix, sqliteUrl } from '../helpers/backends.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { policies } from '../helpers/ratelimit.js';
import { account, bearer, errorCodeOf } from '../helpers/portal.js';

t.test('admin X-API-Key routes authenticate like the data plane and fail closed', async (t) => {
  // The test gateway runs with ALLOW_UNAUTHENTICATED=true: the data plane would serve a keyless request, these routes do not.
  const gw = await startTestGateway(t);
  const key = await gw.key('acme');
  const impact = (headers: Record<string, string>, query = '') => call(`${gw.adminUrl}/financial/impact${query}`, { headers });

  const none = await impact({});
  t.equal(none.status, 401, 'no key: 401 even with ALLOW_UNAUTHENTICATED');
  t.equal(none.headers['www-authenticate'], 'ApiKey');
  t.equal(errorCodeOf(none), 'BASTION_ERR_UNAUTHENTICATED');
  t.equal((await impact({ 'x-api-key': 'bst_not-a-real-key' })).status, 401, 'unknown key');
  t.equal((await impact({}, `?api_key=${key}`)).status, 401, 'a key in the query string is refused');
  t.ok(policies(none.headers['ratelimit-policy']).has('requests-per-minute'), 'RateLimit-Policy on the 401 too');

  const ok = await impact({ 'x-api-key': key });
  t.equal(ok.status, 200);

  const judy = await account(gw.adminUrl, 'judy@example.com');
  const made = (await call(`${gw.adminUrl}/portal/keys`, { headers: bearer(judy.access), body: { name: 'ci' } })).json<{ key_id: string; key: string }>();
  t.equal((await impact({ 'x-api-key': made.key })).status, 200, 'a portal-made key works here');
  t.equal((await call(`${gw.adminUrl}/portal/keys/${made.key_id}`, { method: 'DELETE', headers: bearer(judy.access) })).status, 204);
  t.equal((await impact({ 'x-api-key': made.key })).status, 401, 'a revoked key fails on its next request');
  t.equal((await impact(bearer(judy.access))).status, 401, 'the portal bearer token is accepted only where a route says so');
});

t.test('one window per key across both listeners, with the data plane rate-limit fields', async (t) => {
  const gw = await startTestGateway(t);
  const key = await gw.key('acme', { rate: 4 });
  const admin = () => call(`${gw.adminUrl}/financial/cost-saved`, { headers: { 'x-api-key': key } });
  const remaining = (res: { headers: Record<string, string> }) => policies(res.headers.ratelimit).get('requests-per-minute')?.r;

  const first = await admin();
  t.equal(first.status, 200);
  t.equal(remaining(first), 3, 'the admin call consumed the key window');
  t.equal(first.headers['ratelimit-limit'], '4');
  t.equal(first.headers['x-ratelimit-remaining'], '3');
  const filtered = await call(`${gw.proxyUrl}/filter`, { headers: { 'x-api-key': key }, body: { content: 'hello' } });
  t.equal(remaining(filtered), 2, 'the data plane counts in the same window');
  t.equal(remaining(await admin()), 1);
  t.equal(remaining(await admin()), 0);
  const refused = await admin();
  t.equal(refused.status, 429);
  t.equal(errorCodeOf(refused), 'BASTION_ERR_RATE_LIMITED');
  t.ok(Number(refused.headers['retry-after']) > 0, 'Retry-After on the 429');
  t.equal((await call(`${gw.proxyUrl}/filter`, { headers: { 'x-api-key': key }, body: { content: 'hello' } })).status, 429, 'and the data plane agrees');
});

t.test('with Redis, replicas share the window of a key on their admin listeners too', await needs('redis'), async (t) => {
  const shared = { databaseUrl: sqliteUrl(t), redis: true, redisPrefix: redisPrefix() };
  const a = await startTestGateway(t, shared);
  const b = await startTestGateway(t, shared);
  const key = await a.key('acme', { rate: 3 });
  const on = (gw: typeof a) => call(`${gw.adminUrl}/financial/cost-saved`, { headers: { 'x-api-key': key } });
  t.equal((await on(a)).status, 200);
  t.equal((await on(b)).status, 200);
  t.equal((await call(`${b.proxyUrl}/filter`, { headers: { 'x-api-key': key }, body: { content: 'hi' } })).status, 200);
  t.equal((await on(a)).status, 429, 'the fourth request in the minute is refused, whichever replica and listener served the others');
});
