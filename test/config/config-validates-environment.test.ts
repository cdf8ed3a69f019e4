import t from 'tap';
import { ConfigError, loadConfig } from '../../src/config/load.js';

t.test('defaults give the embedded mode: SQLite file, no Redis, ports 8080/8081', async (t) => {
  const c = loadConfig({});
  t.equal(c.databaseUrl, 'sqlite:./data/bastion.db');
  t.equal(c.redisUrl, undefined);
  t.equal(c.port, 8080);
  t.equal(c.adminPort, 8081);
  t.equal(c.allowUnauthenticated, false);
  t.same(c.apiKeys, []);
});

t.test('environment overrides are parsed and typed', async (t) => {
  const c = loadConfig({
    BASTION_PORT: '9000',
    DATABASE_URL: 'postgres://u@127.0.0.1:5432/x',
    REDIS_URL: 'redis://127.0.0.1:6379',
    ALLOW_UNAUTHENTICATED: 'true',
    BASTION_API_KEYS: 'acme:0123456789abcdef0123, beta:fedcba9876543210fedc',
    BASTION_TRUST_PROXY: '10.0.0.0/8,127.0.0.1',
  });
  t.equal(c.port, 9000);
  t.equal(c.redisUrl, 'redis://127.0.0.1:6379');
  t.equal(c.allowUnauthenticated, true);
  t.same(c.apiKeys, [
    { tenant: 'acme', key: '0123456789abcdef0123' },
    { tenant: 'beta', key: 'fedcba9876543210fedc' },
  ]);
  t.same(c.trustProxy, ['10.0.0.0/8', '127.0.0.1']);
});

const bad: [string, string, RegExp][] = [
  ['BASTION_PORT', '70000', /integer from 0 to 65535/],
  ['BASTION_PORT', 'eighty', /integer/],
  ['DATABASE_URL', 'mysql://x', /sqlite:<path> or postgres/],
  ['REDIS_URL', 'localhost:6379', /redis:\/\//],
  ['ALLOW_UNAUTHENTICATED', 'yes', /true or false/],
  ['BASTION_API_KEYS', 'no-colon-here', /tenant:key pairs/],
  ['BASTION_API_KEYS', 'acme:short', /tenant:key pairs/],
  ['BASTION_LOG_LEVEL', 'loud', /one of fatal, error/],
  ['BASTION_MASTER_KEY', 'abc', /32 bytes/],
  ['BASTION_ADMIN_KEY', 'short', /24 to 512/],
];
for (const [name, value, allowed] of bad) {
  t.test(`a bad ${name} stops the start naming the variable and what is allowed`, async (t) => {
    const err = t.throws(() => loadConfig({ [name]: value })) as ConfigError;
    t.ok(err instanceof ConfigError);
    t.match(err.message, new RegExp(`^Invalid ${name}: expected`));
    t.match(err.message, allowed);
    // A secret's bad value is never echoed back.
    t.notMatch(err.message, value === 'abc' || value === 'short' ? value : /$^/);
  });
}
