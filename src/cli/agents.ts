import type { Config } from '../config/schema.js';
import { verifyActivityLog } from '../storage/agent-activity.js';
import { RedisAnchor, useRedisAnchor } from '../storage/activity-anchor.js';
import { migrate, openStorage } from '../storage/database.js';
import { closeRedis, connectRedis, createRedis } from '../redis/client.js';
import { TENANT_ID, parse } from './args.js';
import { StartupError } from '../startup-error.js';
import { UsageError } from './usage-error.js';

export const AGENTS_USAGE = 'agents verify-log --tenant ID';

/**
 * `bastion agents verify-log --tenant ID`: re-computes the tenant's activity chain with the chain key (derived from
 * BASTION_MASTER_KEY, which it therefore needs) and prints the result as JSON. Exit code 0 when intact, 1 at the
 * first broken link (its seq and why: an edited, inserted or deleted record, or a head moved or re-signed).
 */
export async function agentsCommand(config: Config, argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub !== 'verify-log') throw new UsageError(AGENTS_USAGE);
  const { values, positionals } = parse(rest, { tenant: { type: 'string' } });
  const tenant = values.tenant;
  if (!tenant || !TENANT_ID.test(tenant) || positionals.length > 0) throw new UsageError(AGENTS_USAGE);
  if (!config.masterKey) throw new StartupError('BASTION_MASTER_KEY is needed: the activity log is keyed with a key derived from it');
  const storage = openStorage(config.databaseUrl, { masterKey: config.masterKey, anchorFile: config.activityAnchorFile });
  // The gateway keeps the anchors in Redis when it has one and no file is named: so does verify-log.
  const redis = config.redisUrl && useRedisAnchor(config) ? createRedis(config.redisUrl) : undefined;
  try {
    if (redis) {
      // Unreachable, the anchors cannot be compared: an error, not a verdict on the log.
      if (!(await connectRedis(redis))) throw new StartupError('Redis is unreachable: the activity log anchors are kept there (REDIS_URL)');
      storage.activityAnchor = new RedisAnchor(redis, config.redisPrefix);
    }
    await migrate(storage);
    const result = await verifyActivityLog(storage, tenant);
    process.stdout.write(JSON.stringify(result) + '\n');
    if (result.first_break) process.stderr.write(`bastion: activity log of ${tenant} broken at seq ${result.first_break.seq} (${result.first_break.reason})\n`);
    return result.intact ? 0 : 1;
  } finally {
    if (redis) await closeRedis(redis);
    await storage.close();
  }
}
