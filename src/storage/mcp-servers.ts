import type { Kysely } from 'kysely';
import { open, seal } from '../auth/crypto-box.js';
import type { McpServersTable } from './mcp-schema.js';
import type { Database } from './schema.js';

/** A registered upstream MCP server, credential still sealed. */
export type McpServerRow = McpServersTable;

export interface McpServerInput {
  url: string;
  /** Sent upstream in `credentialHeader` (default authorization); never returned by any route. */
  credential?: string;
  credentialHeader?: string;
  allowedTools?: string[] | null;
  newTools?: 'auto' | 'review';
}

/** The credential's associated data: a sealed value copied to another tenant or server name fails to open. */
const aadOf = (tenantId: string, name: string) => `mcp-server-credential:${tenantId}:${name}`;

export async function findMcpServer(db: Kysely<Database>, tenantId: string, name: string): Promise<McpServerRow | undefined> {
  return db.selectFrom('mcp_servers').selectAll().where('tenant_id', '=', tenantId).where('name', '=', name).executeTakeFirst();
}

export async function listMcpServers(db: Kysely<Database>, tenantId: string): Promise<McpServerRow[]> {
  return db.selectFrom('mcp_servers').selectAll().where('tenant_id', '=', tenantId).orderBy('name').execute();
}

/**
 * Registers or replaces a server. A credential needs the master key (it is only ever stored sealed); leaving it out of
 * a replacement keeps the stored one. Changing the URL forgets the pins: another server's tools are not this one's.
 */
export async function putMcpServer(db: Kysely<Database>, masterKey: Buffer | undefined, tenantId: string, name: string, input: McpServerInput): Promise<{ row: McpServerRow; created: boolean }> {
  if (input.credential !== undefined && !masterKey) throw new Error('master key required to store an upstream credential');
  const now = Date.now();
  return db.transaction().execute(async (tx) => {
    const existing = await findMcpServer(tx, tenantId, name);
    const sealed = input.credential !== undefined ? seal(masterKey!, input.credential, aadOf(tenantId, name)) : (existing?.sealed_credential ?? null);
    const row: McpServerRow = {
      tenant_id: tenantId,
      name,
      url: input.url,
      credential_header: sealed === null ? null : (input.credentialHeader ?? existing?.credential_header ?? 'authorization').toLowerCase(),
      sealed_credential: sealed,
      allowed_tools: input.allowedTools ? JSON.stringify(input.allowedTools) : null,
      new_tools: input.newTools ?? 'auto',
      created_at: existing?.created_at ?? now,
      updated_at: now,
    };
    if (existing) {
      if (existing.url !== input.url) await tx.deleteFrom('mcp_tool_pins').where('tenant_id', '=', tenantId).where('server_name', '=', name).execute();
      await tx.updateTable('mcp_servers').set(row).where('tenant_id', '=', tenantId).where('name', '=', name).execute();
    } else {
      await tx.insertInto('mcp_servers').values(row).execute();
    }
    return { row, created: !existing };
  });
}

export async function deleteMcpServer(db: Kysely<Database>, tenantId: string, name: string): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    await tx.deleteFrom('mcp_tool_pins').where('tenant_id', '=', tenantId).where('server_name', '=', name).execute();
    const result = await tx.deleteFrom('mcp_servers').where('tenant_id', '=', tenantId).where('name', '=', name).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  });
}

/** The upstream credential in clear, for the one request that sends it. Throws when it does not open (fail closed). */
export function openCredential(masterKey: Buffer | undefined, row: McpServerRow): string | undefined {
  if (row.sealed_credential === null) return undefined;
  if (!masterKey) throw new Error('master key required to open the upstream credential');
  return open(masterKey, row.sealed_credential, aadOf(row.tenant_id, row.name));
}

export function allowedToolsOf(row: McpServerRow): Set<string> | null {
  return row.allowed_tools === null ? null : new Set(JSON.parse(row.allowed_tools) as string[]);
}
