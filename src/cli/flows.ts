import { wireDecision } from '../admin/flows/routes.js';
import type { Config } from '../config/schema.js';
import { APPROVAL_TTL_MS } from '../proxy/flows/call-guard.js';
import { getFlowDecision, listFlowDecisions, settleApproval } from '../storage/flows.js';
import { migrate, openStorage } from '../storage/database.js';
import { masterKeyOf } from './quickstart-master-key.js';
import { TENANT_ID, parse } from './args.js';
import { UsageError } from './usage-error.js';

export const FLOWS_USAGE = 'flows approvals list --tenant ID [--status S] [--limit N] | flows approvals show|approve|deny ID --tenant ID';
const STATUSES = new Set(['refused', 'flagged', 'pending', 'approved', 'denied', 'used']);

/**
 * `bastion flows approvals …`: agent flow decisions from the command line (the operator's view of any tenant). Lists
 * a tenant's decisions (default: the calls waiting for approval), shows one with what it would do in plain words, and
 * approves or denies one; the app's next identical call is released once after an approval. Prints JSON: metadata,
 * and for a call waiting for approval where its data would go (opened with the master key, never logged): the one
 * BASTION_MASTER_KEY sets, or on `npm start`'s data the one the quickstart keeps beside the database.
 */
export async function flowsCommand(config: Config, argv: string[]): Promise<number> {
  const [group, sub, ...rest] = argv;
  if (group !== 'approvals') throw new UsageError(FLOWS_USAGE);
  const { values, positionals } = parse(rest, { tenant: { type: 'string' }, status: { type: 'string' }, limit: { type: 'string' } });
  const tenant = values.tenant as string | undefined;
  if (!tenant || !TENANT_ID.test(tenant)) throw new UsageError(FLOWS_USAGE);
  const masterKey = masterKeyOf(config);
  const storage = openStorage(config.databaseUrl, { masterKey });
  const print = (value: unknown) => process.stdout.write(JSON.stringify(value, null, 2) + '\n');
  try {
    await migrate(storage);
    if (sub === 'list') {
      const status = (values.status as string | undefined) ?? 'pending';
      const limit = Number(values.limit ?? 100);
      if (!STATUSES.has(status) || !Number.isInteger(limit) || limit < 1 || limit > 500) throw new UsageError(FLOWS_USAGE);
      print((await listFlowDecisions(storage.db, tenant, { status, limit })).map((row) => wireDecision(row, masterKey)));
      return 0;
    }
    const id = positionals[0];
    if (sub === 'show') {
      if (!id || !/^flow_[0-9a-f]{24}$/.test(id)) throw new UsageError(FLOWS_USAGE);
      const row = await getFlowDecision(storage.db, tenant, id);
      if (!row) {
        process.stderr.write(`bastion: ${id} is not a live decision of this tenant\n`);
        return 1;
      }
      print(wireDecision(row, masterKey));
      return 0;
    }
    if (sub === 'approve' || sub === 'deny') {
      if (!id || !/^flow_[0-9a-f]{24}$/.test(id)) throw new UsageError(FLOWS_USAGE);
      const settled = await settleApproval(storage.db, tenant, id, sub === 'approve' ? 'approved' : 'denied', 'cli', APPROVAL_TTL_MS);
      if (!settled || !settled.changed) {
        process.stderr.write(`bastion: ${id} is ${settled ? `not pending (${settled.row.status})` : 'not a live decision of this tenant'}\n`);
        return 1;
      }
      print(wireDecision(settled.row, masterKey));
      return 0;
    }
    throw new UsageError(FLOWS_USAGE);
  } finally {
    await storage.close();
  }
}
