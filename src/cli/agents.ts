import type { Config } from '../config/schema.js';
import { verifyActivityLog } from '../storage/agent-activity.js';
import { migrate, openStorage } from '../storage/database.js';
import { TENANT_ID, parse } from './args.js';
import { UsageError } from './main.js';

export const AGENTS_USAGE = 'agents verify-log --tenant ID';

/**
 * `bastion agents verify-log --tenant ID`: re-hashes the tenant's activity chain and prints the result as JSON. Exit
 * code 0 when intact, 1 at the first broken link (its seq and why: an edited, inserted or deleted record).
 */
export async function agentsCommand(config: Config, argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub !== 'verify-log') throw new UsageError(AGENTS_USAGE);
  const { values, positionals } = parse(rest, { tenant: { type: 'string' } });
  const tenant = values.tenant;
  if (!tenant || !TENANT_ID.test(tenant) || positionals.length > 0) throw new UsageError(AGENTS_USAGE);
  const storage = openStorage(config.databaseUrl);
  try {
    await migrate(storage);
    const result = await verifyActivityLog(storage.db, tenant);
    process.stdout.write(JSON.stringify(result) + '\n');
    if (result.first_break) process.stderr.write(`bastion: activity log of ${tenant} broken at seq ${result.first_break.seq} (${result.first_break.reason})\n`);
    return result.intact ? 0 : 1;
  } finally {
    await storage.close();
  }
}
