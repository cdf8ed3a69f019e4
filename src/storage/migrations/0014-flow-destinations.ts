import type { Kysely } from 'kysely';

// What an approver needs to see of a withheld call: where its data would go (the destination values and the MCP
// server), sealed under BASTION_MASTER_KEY (null without one) and cleared once the decision is settled for good
// (denied, or the approval used), so a value lives no longer than the decision about it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('flow_decisions').addColumn('sealed_destinations', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('flow_decisions').dropColumn('sealed_destinations').execute();
}
