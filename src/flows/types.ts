/**
 * Agent flow policies (docs/FLOWS.md): what a tool is, what a conversation has seen, and whether a tool call may send
 * data out. Pure types: no HTTP, no storage.
 */

/** What a tool is. A source label says what its results are; `sink` says its calls send data out. */
export type FlowLabel = 'untrusted_source' | 'private_source' | 'sink' | 'internal';
export const FLOW_LABELS: readonly FlowLabel[] = ['untrusted_source', 'private_source', 'sink', 'internal'];

/** What a refused flow-violating call becomes: refused, withheld until approved, or released and reported. */
export type FlowAction = 'block' | 'require_approval' | 'flag';

/** One tenant rule: tools whose lower-cased name matches `tool` (glob, `*`), on MCP server `server` when given. */
export interface LabelRule {
  tool: string;
  server?: string;
  label: FlowLabel;
}

/** The flow part of a tenant policy, as the data plane applies it. */
export interface FlowPolicy {
  enabled: boolean;
  action: FlowAction;
  labels: LabelRule[];
  /** Destinations the tenant always allows: a domain (and its sub-domains), an address, an IBAN, a channel name. */
  allowDestinations: string[];
  /** The organisation's own domains (each with its sub-domains): inside the trust boundary (src/flows/boundary.ts). */
  ownDomains: string[];
  /** Hosts inside the boundary: globs over the host (`*.corp.example`) or CIDR ranges (`10.0.0.0/8`). */
  internalHosts: string[];
}

export const DEFAULT_FLOW_POLICY: FlowPolicy = { enabled: true, action: 'block', labels: [], allowDestinations: [], ownDomains: [], internalHosts: [] };

/** What kind of result a source brought into the conversation. */
export type SourceKind = 'untrusted' | 'private' | 'internal';

/** One tool result the model has seen: metadata only (the tool's name and the call's id), never its content. */
export interface SeenSource {
  tool: string;
  callId?: string;
  kind: SourceKind;
}

/** Why a call was refused: a sink after untrusted content, or private data going to a destination nobody chose. */
export type FlowViolation = 'untrusted_to_sink' | 'private_to_sink';

export interface FlowRefusal {
  flow: FlowViolation;
  /** What made the call a sink: `label`, `name` (a default name pattern) or the effect read from the arguments. */
  sink: string;
  /** The tool results that tainted it (tool name and call id), at most 8. */
  tainted_by: { tool: string; call_id?: string }[];
  /** Argument fields carrying a value that came only from untrusted results (names, never values). */
  tainted_fields: string[];
  /** Destination fields (and, after untrusted content, amount fields) naming nothing the user, the app or the tenant chose. */
  unknown_destinations: string[];
}

export type FlowDecision = { allowed: true } | ({ allowed: false } & FlowRefusal);
