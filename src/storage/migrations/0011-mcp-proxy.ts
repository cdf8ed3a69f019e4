import type { Kysely } from 'kysely';

// The MCP proxy: upstream servers registered per tenant (credential sealed under the master key) and the tool
// definitions pinned per tenant and server. Numbered after 0010 so an existing database applies it in order.
// Definitions are bounded by the proxy before they are stored (src/mcp/proxy/tool-pins.ts).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mcp_servers')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('url', 'varchar(2048)', (c) => c.notNull())
    .addColumn('credential_header', 'varchar(64)')
    .addColumn('sealed_credential', 'varchar(8192)')
    .addColumn('allowed_tools', 'varchar(65536)')
    .addColumn('new_tools', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('mcp_servers_pk', ['tenant_id', 'name'])
    .execute();
  await db.schema
    .createTable('mcp_tool_pins')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('server_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('tool_name', 'varchar(128)', (c) => c.notNull())
    .addColumn('approved_hash', 'varchar(64)')
    .addColumn('approved_definition', 'text')
    .addColumn('pending_hash', 'varchar(64)')
    .addColumn('pending_definition', 'text')
    .addColumn('pending_since', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('mcp_tool_pins_pk', ['tenant_id', 'server_name', 'tool_name'])
    .addForeignKeyConstraint('mcp_tool_pins_server', ['tenant_id', 'server_name'], 'mcp_servers', ['tenant_id', 'name'], (fk) => fk.onDelete('cascade'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mcp_tool_pins').execute();
  await db.schema.dropTable('mcp_servers').execute();
}
