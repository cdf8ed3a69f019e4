/** Tables of migration 0011-mcp-proxy. Timestamps are epoch milliseconds. */

/** An upstream MCP server a tenant registered: where it is, how Bastion authenticates to it, which tools it may offer. */
export interface McpServersTable {
  tenant_id: string;
  name: string;
  url: string;
  /** Header that carries the upstream credential (default `authorization`); null when there is no credential. */
  credential_header: string | null;
  /** The credential sealed under BASTION_MASTER_KEY (src/auth/crypto-box.ts), bound to tenant and server name. */
  sealed_credential: string | null;
  /** JSON array of tool names the agents may see and call; null: every tool the server lists. */
  allowed_tools: string | null;
  /** `auto`: a tool first seen after the first list is pinned at once; `review`: it waits for approval. */
  new_tools: 'auto' | 'review';
  created_at: number;
  updated_at: number;
}

/**
 * One pinned tool of a tenant's server. `approved_*` is the definition agents may use; `pending_*` a definition seen
 * later that differs from it (a changed or, under `review`, a new tool), withheld until a tenant admin approves it.
 * Definitions are the server's own metadata (name, title, description, input schema), kept so an admin sees the diff.
 */
export interface McpToolPinsTable {
  tenant_id: string;
  server_name: string;
  tool_name: string;
  approved_hash: string | null;
  approved_definition: string | null;
  pending_hash: string | null;
  pending_definition: string | null;
  pending_since: number | null;
  updated_at: number;
}

export interface McpTables {
  mcp_servers: McpServersTable;
  mcp_tool_pins: McpToolPinsTable;
}
