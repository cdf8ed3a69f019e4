import type { Config } from '../config/schema.js';
import { verifyActivityLog } from '../storage/agent-activity.js';
import { migrate, openStorage } from '../storage/database.js';
import { TENANT_ID, parse } from './args.js';
import { StartupError } from '../runtime.js';
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
  const storage = openStorage(config.databaseUrl, { masterKey: config.masterKey });
  try {
    await migrate(storage);
    const result = await verifyActivityLog(storage, tenant);
    process.stdout.write(JSON.stringify(result) + '\n');
    if (result.first_break) process.stderr.write(`bastion: activity log of ${tenant} broken at seq ${result.first_break.seq} (${result.first_break.reason})\n`);
    return result.intact ? 0 : 1;
  } finally {
    await storage.close();
  }
}
