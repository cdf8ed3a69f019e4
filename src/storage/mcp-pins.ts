import type { Kysely } from 'kysely';
import type { Pin, PinWrite } from '../mcp/proxy/tool-pins.js';
import type { McpToolPinsTable } from './mcp-schema.js';
import type { Database } from './schema.js';

export type PinRow = McpToolPinsTable;

export async function listPins(db: Kysely<Database>, tenantId: string, server: string): Promise<PinRow[]> {
  return db.selectFrom('mcp_tool_pins').selectAll().where('tenant_id', '=', tenantId).where('server_name', '=', server).orderBy('tool_name').execute();
}

/** Names of the tools a tenant's other servers have pinned (approved): what a description must not hook into. */
export async function otherServersToolNames(db: Kysely<Database>, tenantId: string, server: string): Promise<string[]> {
  const rows = await db.selectFrom('mcp_tool_pins').select('tool_name').distinct().where('tenant_id', '=', tenantId).where('server_name', '!=', server).where('approved_hash', 'is not', null).execute();
  return rows.map((r) => r.tool_name);
}

export async function findPin(db: Kysely<Database>, tenantId: string, server: string, tool: string): Promise<Pin | undefined> {
  return db
    .selectFrom('mcp_tool_pins')
    .select(['tool_name', 'approved_hash', 'approved_definition', 'pending_hash', 'pending_definition'])
    .where('tenant_id', '=', tenantId)
    .where('server_name', '=', server)
    .where('tool_name', '=', tool)
    .executeTakeFirst();
}

/**
 * Records what a tools/list showed. Inserts never overwrite (two sessions listing a server's first list at once both
 * try to pin it: the first wins); a pending version replaces an older pending one, never the approved one.
 */
export async function writePins(db: Kysely<Database>, tenantId: string, server: string, writes: readonly PinWrite[]): Promise<void> {
  if (writes.length === 0) return;
  const now = Date.now();
  const key = { tenant_id: tenantId, server_name: server };
  await db.transaction().execute(async (tx) => {
    for (const w of writes) {
      if (w.kind === 'approve') {
        await tx
          .insertInto('mcp_tool_pins')
          .values({ ...key, tool_name: w.tool, approved_hash: w.hash, approved_definition: w.definition, pending_hash: null, pending_definition: null, pending_since: null, updated_at: now })
          .onConflict((oc) => oc.columns(['tenant_id', 'server_name', 'tool_name']).doNothing())
          .execute();
      } else if (w.kind === 'pending') {
        await tx
          .insertInto('mcp_tool_pins')
          .values({ ...key, tool_name: w.tool, approved_hash: null, approved_definition: null, pending_hash: w.hash, pending_definition: w.definition, pending_since: now, updated_at: now })
          .onConflict((oc) => oc.columns(['tenant_id', 'server_name', 'tool_name']).doUpdateSet({ pending_hash: w.hash, pending_definition: w.definition, pending_since: now, updated_at: now }))
          .execute();
      } else {
        await tx
          .updateTable('mcp_tool_pins')
          .set({ pending_hash: null, pending_definition: null, pending_since: null, updated_at: now })
          .where('tenant_id', '=', tenantId)
          .where('server_name', '=', server)
          .where('tool_name', '=', w.tool)
          .execute();
      }
    }
  });
}

/**
 * Approves the pending version whose hash the admin saw (so a newer change made meanwhile is not approved unseen).
 * False when there is no such pending version.
 */
export async function approvePending(db: Kysely<Database>, tenantId: string, server: string, tool: string, hash: string): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const pin = await findPin(tx, tenantId, server, tool);
    if (!pin || pin.pending_hash !== hash) return false;
    await tx
      .updateTable('mcp_tool_pins')
      .set({ approved_hash: pin.pending_hash, approved_definition: pin.pending_definition, pending_hash: null, pending_definition: null, pending_since: null, updated_at: Date.now() })
      .where('tenant_id', '=', tenantId)
      .where('server_name', '=', server)
      .where('tool_name', '=', tool)
      .where('pending_hash', '=', hash)
      .execute();
    return true;
  });
}
