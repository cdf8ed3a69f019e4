import type { ChainRecord } from '../agents/activity-chain.js';
import type { AgentRow } from '../agents/agent.js';

/** Tables of issue 12 (migration 0006-agents). Money is bigint minor units; timestamps are epoch milliseconds. */

/** The row is the pure core's AgentRow (limits in integer minor units, allowed payees as a JSON array). */
export type AgentsTable = AgentRow;

export interface AgentLogHeadsTable {
  tenant_id: string;
  seq: number;
  hash: string;
  /** Migration 0010: records 1..legacy_seq predate the keyed chain (plain SHA-256); 0 for chains keyed from the start. */
  legacy_seq: number;
  /** HMAC of (tenant_id, seq, hash, legacy_seq) under the chain key; null only if never sealed (reported as tampered). */
  mac: string | null;
}

/** A chain record as the pure core hashes it, plus its own hash (detail: metadata only, never content or credentials). */
export interface AgentActivityTable extends ChainRecord {
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

/** A registration challenge (migration 0010): stored as its SHA-256, bound to one tenant and one DID, single-use. */
export interface AgentChallengesTable {
  challenge_hash: string;
  tenant_id: string;
  did: string;
  expires_at: number;
}

export interface AgentTables {
  agent_challenges: AgentChallengesTable;
  agents: AgentsTable;
  agent_log_heads: AgentLogHeadsTable;
  agent_activity: AgentActivityTable;
  agent_quotes: AgentQuotesTable;
  mandate_idempotency: MandateIdempotencyTable;
  gateway_signing_keys: GatewaySigningKeysTable;
}
