/**
 * Every in-process cache is bounded by bytes (issue 10, defect 4), so memory reaches a plateau whatever the traffic:
 * many keys, many tenants, many end users or many distinct texts. One place lists them all; ARCHITECTURE.md has the
 * table. Sizes are estimates of the V8 heap an entry holds (`approxBytes`), erring on the large side.
 */
const MB = 1024 * 1024;

export const MEMORY_BUDGETS = {
  /** Resolved API keys (only with a revocation channel) and when each key was last touched. */
  keyCache: 8 * MB,
  keyTouched: 2 * MB,
  /** Effective per-tenant detection policies (an allow-list can make one tens of KB). */
  tenantPolicies: 16 * MB,
  /** In-process sliding-window logs: one timestamp per admitted request in the last window, per key or client IP. */
  rateWindows: 32 * MB,
  /** In-process entity risk scores (per tenant and end user). */
  ers: 16 * MB,
  /** Which evolved rules fired for a request id (for false-positive attribution), kept a day. */
  ruleAttribution: 8 * MB,
  /** Recently queued attack hashes of the evolution loop (dedupe) and the per-minute/day budget counters. */
  evolutionRecent: 2 * MB,
  evolutionBudget: 2 * MB,
  /** Verdict cache admission: hashes of texts judged once (a text is cached from its second sighting). */
  verdictDoorkeeper: 4 * MB,
  /** What an inspection thread read in tool calls' arguments for the flow decision (src/proxy/flows/read-calls.ts). */
  callFacts: 2 * MB,
  /** MCP proxy: judged tool lists and each tool's verdict (findings only), and the pinned tools of each tenant's servers. */
  mcpDefinitionVerdicts: 8 * MB,
  mcpPins: 16 * MB,
  /** MCP proxy: session ids verified (bound to their tenant and server), so the HMAC is not computed on every message. */
  mcpSessions: 2 * MB,
  /** MCP proxy: live sessions' flow states (value hashes, sources, call ids), each sized by what it holds. */
  mcpFlowStates: 64 * MB,
} as const;

/** Fixed cost of an LRU entry (node, key slot, bookkeeping arrays), on top of key and value. */
export const LRU_ENTRY_OVERHEAD = 96;

/**
 * Approximate heap bytes of a JSON-like value: strings at two bytes a character, 16 bytes a slot for objects and
 * arrays. Walks at most `depth` levels (deeper values count as one slot): an estimate for budgets, not an exact size.
 */
export function approxBytes(value: unknown, depth = 4): number {
  if (typeof value === 'string') return 16 + 2 * value.length;
  if (value === null || typeof value !== 'object') return 8;
  if (depth === 0) return 16;
  let bytes = 32;
  if (Array.isArray(value)) {
    for (const item of value) bytes += 8 + approxBytes(item, depth - 1);
    return bytes;
  }
  for (const [key, item] of Object.entries(value)) bytes += 16 + 2 * key.length + approxBytes(item, depth - 1);
  return bytes;
}

/** lru-cache options for a cache of `budget` bytes whose entries are sized by approxBytes. */
export function byteBounded<K extends string, V extends {}>(budget: number, size: (value: V, key: K) => number = (v, k) => approxBytes(v) + approxBytes(k)) {
  return { maxSize: budget, sizeCalculation: (value: V, key: K) => Math.max(1, LRU_ENTRY_OVERHEAD + size(value, key)) };
}
