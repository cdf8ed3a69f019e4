import { DEFAULT_PLAN, PLAN_NAMES, isPlan } from '../config/plans.js';
import type { Config } from '../config/schema.js';
import { migrate, openStorage } from '../storage/database.js';
import { createTenant, findTenant } from '../storage/tenants.js';
import { TENANT_ID, parse } from './args.js';
import { UsageError } from './usage-error.js';
import { POLICY_USAGE, tenantPolicyCommand } from './tenant-policy.js';

export async function tenantsCommand(config: Config, argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === 'policy') return tenantPolicyCommand(config, rest);
  if (sub !== 'create') throw new UsageError(`tenants create ID [--plan P] | ${POLICY_USAGE}`);
  const { values, positionals } = parse(rest, { plan: { type: 'string' } });
  const id = positionals[0];
  const plan = values.plan ?? DEFAULT_PLAN;
  if (!id || !TENANT_ID.test(id)) throw new UsageError('tenants create needs an ID (1–64 of A-Z a-z 0-9 _ . -)');
  if (!isPlan(plan)) throw new UsageError(`--plan must be one of ${PLAN_NAMES.join(', ')}`);
  const storage = openStorage(config.databaseUrl, { masterKey: config.masterKey });
  try {
    await migrate(storage);
    if (await findTenant(storage.db, id)) throw new UsageError(`tenant ${id} already exists`);
    await createTenant(storage.db, id, plan);
    process.stdout.write(`created tenant ${id} (plan ${plan})\n`);
    return 0;
  } finally {
    await storage.close();
  }
}
