import { applyAssignments, defaultPolicy, effectivePolicy, wirePolicy } from '../config/tenant-policy.js';
import type { Config } from '../config/schema.js';
import { POLICY_CHANGED } from '../policy/tenant-policies.js';
import { migrate, openStorage } from '../storage/database.js';
import { readTenantPolicy, writeTenantPolicy } from '../storage/tenant-policies.js';
import { findTenant } from '../storage/tenants.js';
import { TENANT_ID, parse } from './args.js';
import { announceTenantChange } from './announce.js';
import { UsageError } from './usage-error.js';

export const POLICY_USAGE = 'tenants policy ID [--set key=value]… [--unset key]… [--show]';

/**
 * `bastion tenants policy ID`: shows or changes a tenant's detection policy in the database. With Redis configured the
 * change is announced to every replica at once; otherwise running servers pick it up within BASTION_POLICY_CACHE_TTL_MS.
 * Prints stored and effective policy as JSON.
 */
export async function tenantPolicyCommand(config: Config, argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, { set: { type: 'string', multiple: true }, unset: { type: 'string', multiple: true }, show: { type: 'boolean' } });
  const id = positionals[0];
  if (!id || !TENANT_ID.test(id) || positionals.length > 1) throw new UsageError(POLICY_USAGE);
  const sets = (values.set ?? []) as string[];
  const unsets = (values.unset ?? []) as string[];
  const storage = openStorage(config.databaseUrl, { masterKey: config.masterKey });
  try {
    await migrate(storage);
    if (!(await findTenant(storage.db, id))) throw new UsageError(`no tenant ${id}`);
    let stored = (await readTenantPolicy(storage.db, id)) ?? {};
    if (sets.length > 0 || unsets.length > 0) {
      try {
        stored = applyAssignments(stored, sets, unsets);
      } catch (err) {
        throw new UsageError((err as Error).message);
      }
      stored = await writeTenantPolicy(storage.db, id, stored);
      await announceTenantChange(config, POLICY_CHANGED, id, 'change');
    }
    const effective = wirePolicy(effectivePolicy(defaultPolicy(config), Object.keys(stored).length > 0 ? stored : undefined));
    process.stdout.write(JSON.stringify({ tenant_id: id, policy: stored, effective }, null, 2) + '\n');
    return 0;
  } finally {
    await storage.close();
  }
}
