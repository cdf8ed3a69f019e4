import type { Generated } from 'kysely';

/** Tables of migrations 0012-flow-policies, 0013-flow-state-parts and 0014-flow-destinations. Timestamps are epoch milliseconds. Metadata only, never content. */

/** A stored Response's or an MCP session's flow state (src/flows/state.ts `StoredFlowState` as JSON). */
export interface FlowStatesTable {
  tenant_id: string;
  /** `response:<id>` or `mcp:<server>:<session id>`. */
  key: string;
  state: string;
  /** The last part (flow_state_parts) this snapshot covers; 0 for a state written whole (a stored Response). */
  seq: Generated<number>;
  expires_at: number;
}

/** What one call added to a long-lived state (src/flows/state-part.ts `FlowStatePart` as JSON), numbered per key. */
export interface FlowStatePartsTable {
  tenant_id: string;
  key: string;
  seq: number;
  part: string;
  expires_at: number;
}

/** One call the flow policy refused, withheld for approval or flagged. */
export interface FlowDecisionsTable {
  id: string;
  tenant_id: string;
  /** chat | responses | messages | mcp */
  api: string;
  tool: string;
  /** untrusted_to_sink | private_to_sink */
  flow: string;
  sink: string;
  /** The policy's action: block | require_approval | flag */
  action: string;
  /** refused | flagged | pending | approved | denied | used | expired */
  status: string;
  /** Keyed hash of tenant, tool and canonical arguments: the retried call is recognised by it. */
  fingerprint: string;
  /** JSON: tainted_by (tool names, call ids), tainted_fields, unknown_destinations (field names). */
  detail: string;
  request_id: string;
  created_at: number;
  expires_at: number;
  decided_at: number | null;
  decided_by: string | null;
  /** A withheld call's destinations (FlowDestinations as JSON) sealed under the master key (migration 0014); null once settled. */
  sealed_destinations: string | null;
}

export interface FlowTables {
  flow_states: FlowStatesTable;
  flow_state_parts: FlowStatePartsTable;
  flow_decisions: FlowDecisionsTable;
}
