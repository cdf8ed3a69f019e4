import type { Generated } from 'kysely';
import type { AgentTables } from './agent-schema.js';
import type { EvolutionTables } from './evolution-schema.js';
import type { FlowTables } from './flow-schema.js';
import type { McpTables } from './mcp-schema.js';
import type { PaymentTables } from './payment-schema.js';
import type { PortalTables } from './portal-schema.js';
import type { SyndicateTables } from './syndicate-schema.js';

/** Which database: the migrations and the few queries that differ read it (here, so migrations need not import the connection code). */
export type Dialect = 'sqlite' | 'postgres';

/** Table types shared by every storage module. Timestamps are epoch milliseconds. */

export interface TenantsTable {
  id: string;
  plan: string;
  /** JSON array of purchased add-on names. */
  addons: string;
  created_at: number;
}

export interface ApiKeysTable {
  key_id: string;
  tenant_id: string;
  name: string;
  /** SHA-256 of the full key, hex. The key itself is never stored. */
  key_hash: string;
  /** First characters of the key, for display (`bst_AbC123`). */
  prefix: string;
  rate_per_minute: number;
  /** Where the key came from: `cli`, `env` (BASTION_API_KEYS), `portal`. */
  source: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

/** A tenant's detection policy overrides (JSON, validated on write and on read). */
export interface TenantPoliciesTable {
  tenant_id: string;
  policy: string;
  updated_at: number;
}

export interface UsageMonthlyTable {
  tenant_id: string;
  /** UTC calendar month, `YYYY-MM`. */
  period: string;
  count: Generated<number>;
}

export interface Database extends PortalTables, EvolutionTables, AgentTables, PaymentTables, SyndicateTables, McpTables, FlowTables {
  tenants: TenantsTable;
  api_keys: ApiKeysTable;
  usage_monthly: UsageMonthlyTable;
  tenant_policies: TenantPoliciesTable;
}
