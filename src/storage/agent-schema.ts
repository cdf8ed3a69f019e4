/** Tables of issue 12 (migration 0006-agents). Money is bigint minor units; timestamps are epoch milliseconds. */

export interface AgentsTable {
  agent_id: string;
  tenant_id: string;
  display_name: string;
  /** `did:key:z6Mk…`: the agent's Ed25519 public key. The private key never reaches the gateway. */
  did: string;
  status: 'active' | 'revoked';
  currency: string;
  max_per_transaction: number;
  max_daily: number;
  max_monthly: number;
  /** JSON array of payees or catalogue items the agent may pay. */
  allowed_payees: string;
  expires_at: number | null;
  created_at: number;
  updated_at: number;
  revoked_at: number | null;
}

export interface AgentLogHeadsTable {
  tenant_id: string;
  seq: number;
  hash: string;
}

export interface AgentActivityTable {
  tenant_id: string;
  seq: number;
  agent_id: string | null;
  kind: string;
  /** JSON object of metadata (ids, amounts, reason codes): never request content or credentials. */
  detail: string;
  created_at: number;
  prev_hash: string;
  hash: string;
}

export interface AgentQuotesTable {
  quote_id: string;
  quote_hash: string;
  tenant_id: string;
  agent_id: string;
  item: string;
  payee: string;
  amount: number;
  currency: string;
  created_at: number;
  expires_at: number;
  /** Set once, by the mandate that spent it: a used quote is the spend record. */
  used_at: number | null;
}

export interface MandateIdempotencyTable {
  tenant_id: string;
  idempotency_key: string;
  body_hash: string;
  status: number | null;
  response: string | null;
  created_at: number;
}

export interface GatewaySigningKeysTable {
  name: string;
  kid: string;
  public_jwk: string;
  sealed_private_jwk: string;
  created_at: number;
}

export interface AgentTables {
  agents: AgentsTable;
  agent_log_heads: AgentLogHeadsTable;
  agent_activity: AgentActivityTable;
  agent_quotes: AgentQuotesTable;
  mandate_idempotency: MandateIdempotencyTable;
  gateway_signing_keys: GatewaySigningKeysTable;
}
