import t from 'tap';
import { listKeys } from '../../src/storage/api-keys.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { runCli } from '../helpers/process.js';

t.test('API key authentication on the data plane (SPEC §5)', async (t) => {
  const gw = await startTestGateway(t, {
    config: { allowUnauthenticated: false, adminKey: 'admin-secret-0123456789abcdef', apiKeys: [{ tenant: 'acme', key: 'bootstrap-key-0123456789' }] },
  });
  const key = await gw.key('acme');

  t.test('a valid key gets /health for its tenant', async (t) => {
    const res = await call(`${gw.proxyUrl}/health`, { headers: { 'x-api-key': key } });
    t.equal(res.status, 200);
    t.equal(res.json().tenant_id, 'acme');
    t.match(res.headers['x-request-id'], /^req_[0-9a-f]{24}$/);
  });

  for (const [what, headers] of [
    ['missing', {}],
    ['unknown', { 'x-api-key': 'bst_' + 'x'.repeat(43) }],
    ['empty', { 'x-api-key': '' }],
    ['the admin key presented as an API key', { 'x-api-key': 'admin-secret-0123456789abcdef' }],
  ] as [string, Record<string, string>][]) {
    t.test(`a ${what} key gets 401 with WWW-Authenticate: ApiKey`, async (t) => {
      const res = await call(`${gw.proxyUrl}/health`, { headers });
      t.equal(res.status, 401);
      t.equal(res.headers['www-authenticate'], 'ApiKey');
      t.equal(res.json<{ error: { code: string } }>().error.code, 'BASTION_ERR_UNAUTHENTICATED');
      t.ok(res.headers['ratelimit-policy'], 'RateLimit-Policy is on every response');
    });
  }

  t.test('a key in the query string is refused even when it is valid, and never logged', async (t) => {
    const res = await call(`${gw.proxyUrl}/health?api_key=${key}`, { headers: { 'x-api-key': key } });
    t.equal(res.status, 401);
    t.equal(res.json<{ error: { code: string } }>().error.code, 'BASTION_ERR_QUERY_KEY_REFUSED');
    t.notOk(gw.logs.text.includes(key), 'the key is not in the logs');
  });

  t.test('a key revoked with the CLI (another process, same SQLite file) fails on the very next request', async (t) => {
    const other = await gw.key('acme');
    t.equal((await call(`${gw.proxyUrl}/health`, { headers: { 'x-api-key': other } })).status, 200, 'now cached');
    const record = (await listKeys(gw.services.storage.db, 'acme')).find((k) => other.startsWith(k.prefix) && !k.revokedAt)!;
    const cli = await runCli(['keys', 'revoke', record.keyId], { DATABASE_URL: gw.services.config.databaseUrl });
    t.equal(cli.code, 0, cli.stderr);
    t.equal((await call(`${gw.proxyUrl}/health`, { headers: { 'x-api-key': other } })).status, 401);
  });

  t.test('probes and the OpenAPI document need no key', async (t) => {
    t.equal((await call(`${gw.proxyUrl}/livez`)).status, 200);
    t.equal((await call(`${gw.proxyUrl}/readyz`)).status, 200);
    t.equal((await call(`${gw.adminUrl}/readyz`)).status, 200);
    const doc = (await call(`${gw.proxyUrl}/openapi.json`)).json<{ paths: Record<string, Record<string, { security?: unknown[] }>> }>();
    t.same(doc.paths['/filter'].post.security, [{ apiKey: [] }]);
    t.notOk(doc.paths['/demo/filter'].post.security, '/demo/filter is the one unauthenticated screening route');
  });
});

t.test('ALLOW_UNAUTHENTICATED=true serves keyless requests as tenant default, but a wrong key is still 401', async (t) => {
  const gw = await startTestGateway(t, { config: { allowUnauthenticated: true } });
  const anon = await call(`${gw.proxyUrl}/health`);
  t.equal(anon.status, 200);
  t.equal(anon.json().tenant_id, 'default');
  t.equal((await call(`${gw.proxyUrl}/health`, { headers: { 'x-api-key': 'bst_wrongwrongwrongwrong' } })).status, 401);
});
