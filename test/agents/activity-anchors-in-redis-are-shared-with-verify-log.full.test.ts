import { Redis } from 'ioredis';
import t from 'tap';
import { databaseUrl, needs, REDIS_URL, redisPrefix } from '../helpers/backends.js';
import { startTestGateway } from '../helpers/gateway.js';
import { MASTER_KEY } from '../helpers/portal.js';
import { rollbackScenarios } from './anchor-scenarios.js';

// With Redis and no anchor file named, the anchors live in Redis: every replica advances the same one and verify-log
// (which connects to Redis as the gateway does) compares with it.
t.test('postgres + redis: a wiped or rolled-back activity log is reported (anchors in Redis)', { ...(await needs('postgres')), ...(await needs('redis')) }, async (t) => {
  const url = await databaseUrl(t, 'postgres');
  const prefix = redisPrefix();
  const gw = await startTestGateway(t, { databaseUrl: url, redis: true, redisPrefix: prefix, config: { masterKey: MASTER_KEY } });
  const redis = new Redis(REDIS_URL);
  t.teardown(() => redis.quit());
  const key = (tenant: string) => `${prefix}activity-anchor:${tenant}`;
  await rollbackScenarios(t, gw, { DATABASE_URL: url, BASTION_MASTER_KEY: MASTER_KEY.toString('hex'), REDIS_URL, BASTION_REDIS_PREFIX: prefix }, {
    drop: async (tenant) => void (await redis.del(key(tenant))),
    edit: async (tenant, change) => {
      const anchor = JSON.parse((await redis.get(key(tenant)))!) as { seq: number };
      change(anchor);
      await redis.set(key(tenant), JSON.stringify(anchor));
    },
    garble: async (tenant) => void (await redis.set(key(tenant), 'not json')),
  });
});
