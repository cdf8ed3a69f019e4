import { gatewayTenantPlan } from '../config/plans.js';
import type { Config } from '../config/schema.js';
import { closeRedis, connectRedis, createRedis } from '../redis/client.js';
import { createApiKey, findKey, listKeys, revokeKey } from '../storage/api-keys.js';
import { migrate, openStorage } from '../storage/database.js';
import { ensureGatewayTenant, findTenant } from '../storage/tenants.js';
import { TENANT_ID, parse, positiveInt } from './args.js';
import { UsageError } from './usage-error.js';

export async function keysCommand(config: Config, argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  const storage = openStorage(config.databaseUrl, { masterKey: config.masterKey });
  try {
    await migrate(storage);
    if (sub === 'create') {
      const { values } = parse(rest, { tenant: { type: 'string' }, name: { type: 'string' }, rate: { type: 'string' }, 'create-tenant': { type: 'boolean' } });
      if (!values.tenant || !TENANT_ID.test(values.tenant)) throw new UsageError('keys create needs --tenant ID (1–64 of A-Z a-z 0-9 _ . -)');
      const rate = positiveInt(values.rate, '--rate', 1_000_000) ?? config.defaultRatePerMinute;
      // A typo in --tenant must not silently open a new tenant with its own quota and policy.
      if (values['create-tenant']) await ensureGatewayTenant(storage.db, values.tenant, config.plans);
      else if (!(await findTenant(storage.db, values.tenant))) {
        throw new UsageError(
          `no tenant ${values.tenant}: create it with \`bastion tenants create ${values.tenant} [--plan P]\`, or add --create-tenant (plan ${gatewayTenantPlan(config.plans).plan})`,
        );
      }
      const { key, record } = await createApiKey(storage.db, { tenantId: values.tenant, name: values.name ?? 'cli', ratePerMinute: rate, source: 'cli' });
      process.stdout.write(`key_id: ${record.keyId}\ntenant: ${record.tenantId}\nrate:   ${rate}/min\nkey:    ${key}\n(shown once: only its SHA-256 is stored)\n`);
      return 0;
    }
    if (sub === 'list') {
      const { values } = parse(rest, { tenant: { type: 'string' } });
      for (const k of await listKeys(storage.db, values.tenant)) {
        const state = k.revokedAt ? 'revoked' : 'active';
        process.stdout.write(`${k.keyId}\t${k.tenantId}\t${k.prefix}…\t${k.ratePerMinute}/min\t${state}\t${k.name}\n`);
      }
      return 0;
    }
    if (sub === 'revoke') {
      const { positionals } = parse(rest, {});
      const keyId = positionals[0];
      if (!keyId) throw new UsageError('keys revoke needs KEY_ID');
      if (!(await findKey(storage.db, keyId))) throw new UsageError(`no key ${keyId}`);
      const hash = await revokeKey(storage.db, keyId);
      if (hash) await announceRevocation(config, hash);
      process.stdout.write(hash ? `revoked ${keyId}\n` : `${keyId} was already revoked\n`);
      return 0;
    }
    throw new UsageError('keys create | list | revoke');
  } finally {
    await storage.close();
  }
}

/** Replicas cache keys only when Redis is configured; tell them at once. */
async function announceRevocation(config: Config, hash: string): Promise<void> {
  if (!config.redisUrl) return;
  const redis = createRedis(config.redisUrl);
  try {
    if (await connectRedis(redis)) await redis.publish(`${config.redisPrefix}events`, JSON.stringify({ type: 'key_revoked', hash }));
    else process.stderr.write('bastion: warning: Redis unreachable; cached copies of the key expire within BASTION_KEY_CACHE_TTL_MS\n');
  } finally {
    await closeRedis(redis);
  }
}
