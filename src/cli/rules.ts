import type { Config } from '../config/schema.js';
import { BastionError } from '../errors.js';
import { RULES_CHANGED } from '../evolution/active-rules.js';
import { RuleAdmin } from '../evolution/rule-admin.js';
import { closeRedis, connectRedis, createRedis } from '../redis/client.js';
import { migrate, openStorage } from '../storage/database.js';
import { RULE_STATUSES, type RuleStatus } from '../storage/evolution-schema.js';
import { TENANT_ID, parse, positiveInt } from './args.js';
import { UsageError } from './usage-error.js';

export const RULES_USAGE = 'rules list [--tenant ID] [--status S] [--limit N] | rules show|disable|enable RULE_ID [--tenant ID]';

/**
 * `bastion rules …`: the evolved rules from the command line. Without `--tenant`: the operator's view (every rule,
 * any decision). With `--tenant ID`: what that tenant sees and may do (the rules in force for it with their origin,
 * hits and its reports; disable or enable its own rules), as in the console. Prints JSON, metadata only. A change
 * reaches running gateways at once over Redis, else at their next store check (EVOLUTION_RESYNC_MS).
 */
export async function rulesCommand(config: Config, argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  const { values, positionals } = parse(rest, { tenant: { type: 'string' }, status: { type: 'string' }, limit: { type: 'string' } });
  const tenant = values.tenant as string | undefined;
  if (tenant !== undefined && !TENANT_ID.test(tenant)) throw new UsageError(RULES_USAGE);
  const status = values.status as string | undefined;
  if (status !== undefined && !(RULE_STATUSES as readonly string[]).includes(status)) throw new UsageError(`--status must be one of ${RULE_STATUSES.join(', ')}`);
  const limit = positiveInt(values.limit as string | undefined, '--limit', 1000) ?? 200;
  const id = positionals[0];
  if (sub !== 'list' && (!id || id.length > 40)) throw new UsageError(RULES_USAGE);

  const storage = openStorage(config.databaseUrl, { masterKey: config.masterKey });
  const changed = { changed: () => announceRulesChanged(config) };
  const admin = new RuleAdmin(storage.db, { unflushed: () => 0 }, changed, true);
  const print = (value: unknown) => process.stdout.write(JSON.stringify(value, null, 2) + '\n');
  try {
    await migrate(storage);
    switch (sub) {
      case 'list':
        print(tenant ? await admin.tenant.list(tenant, limit) : await admin.list({ ...(status ? { status: status as RuleStatus } : {}), limit }));
        return 0;
      case 'show':
        print(tenant ? await admin.tenant.show(tenant, id!) : await admin.show(id!));
        return 0;
      case 'disable':
      case 'enable':
        print(tenant ? await admin.tenant.decide(tenant, id!, sub) : await admin.decide(id!, sub));
        if (!config.redisUrl) process.stderr.write('bastion: a running gateway applies the change at its next store check (EVOLUTION_RESYNC_MS); the console and /admin/rules apply it at once\n');
        return 0;
      default:
        throw new UsageError(RULES_USAGE);
    }
  } catch (err) {
    if (!(err instanceof BastionError)) throw err;
    process.stderr.write(`bastion: ${err.message}\n`);
    return 1;
  } finally {
    await storage.close();
  }
}

/** Every replica re-reads the active set now (Redis); without Redis the gateways' periodic check finds the change. */
async function announceRulesChanged(config: Config): Promise<void> {
  if (!config.redisUrl) return;
  const redis = createRedis(config.redisUrl);
  try {
    if (await connectRedis(redis)) await redis.publish(`${config.redisPrefix}events`, JSON.stringify({ type: RULES_CHANGED }));
    else process.stderr.write('bastion: warning: Redis unreachable; gateways apply the change at their next store check (EVOLUTION_RESYNC_MS)\n');
  } finally {
    await closeRedis(redis);
  }
}
