import type { Config } from '../config/schema.js';
import { closeRedis, connectRedis, createRedis } from '../redis/client.js';

/**
 * Tells the running gateways, over the Redis event channel, that a tenant's `type` of settings changed (a tenant policy,
 * an MCP approval), so every replica re-reads it now. Without Redis there is nothing to tell (SQLite gateways notice the
 * write themselves); with Redis down, the replicas apply the change when their cache entry expires, said as `what`.
 */
export async function announceTenantChange(config: Config, type: string, tenantId: string, what: string): Promise<void> {
  if (!config.redisUrl) return;
  const redis = createRedis(config.redisUrl);
  try {
    if (await connectRedis(redis)) await redis.publish(`${config.redisPrefix}events`, JSON.stringify({ type, tenant: tenantId }));
    else process.stderr.write(`bastion: warning: Redis unreachable; replicas apply the ${what} within BASTION_POLICY_CACHE_TTL_MS\n`);
  } finally {
    await closeRedis(redis);
  }
}
