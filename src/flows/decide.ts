import { sinkByLabel } from './labels.js';
import { traceOf } from './exits.js';
import { readCall, type ArgumentLeaf } from './sink.js';
import type { FlowState } from './state.js';
import type { FlowDecision, FlowPolicy } from './types.js';
import { leafKeys, urlHost, type Hasher } from './values.js';

/**
 * The decision for one tool call. Nothing but a sink is ever refused. A sink passes while the conversation holds
 * neither untrusted content nor private data (the user's own request). Once it does, a sink passes only when every
 * destination it names was named by the user or the app, appears in a private or internal result (the user's own
 * contacts, stored payees), or is on the tenant's allow-list, and no destination or amount carries a value that came
 * only from untrusted results. A sink with no destination the guard can read is refused: it cannot be shown to go
 * where the user chose. After untrusted content an amount must be chosen the same way.
 */

export interface FlowCall {
  tool: string;
  /** The MCP server the tool belongs to, for per-server labels. */
  server?: string;
  /** The call's arguments as sent (a JSON text, or a command line). */
  arguments: string;
}

const MAX_TAINTED_BY = 8;
const MAX_FIELDS = 16;

export function decide(state: FlowState, policy: FlowPolicy, hash: Hasher, call: FlowCall, allowDomains: readonly string[] = []): FlowDecision {
  // Nothing seen yet: the user's own request, whatever the call does (its arguments are not even read).
  if (!policy.enabled || (!state.untrustedSeen && !state.privateSeen)) return { allowed: true };
  const byLabel = sinkByLabel(policy, call.tool, call.server);
  if (byLabel === 'internal') return { allowed: true };
  const reading = readCall(call.arguments, call.tool, traceOf(state, hash));
  const sink = byLabel ?? reading.sinkEffect;
  if (sink === undefined) return { allowed: true };

  const chosen = (h: string) => state.named.has(h) || state.trusted.has(h);
  const taintedBy = new Set<number>();
  const taintedFields: string[] = [];
  for (const leaf of [...reading.destinations, ...reading.amounts]) {
    let tainted = false;
    for (const k of leafKeys(leaf.value)) {
      const h = hash(k);
      const from = state.untrusted.get(h);
      if (from === undefined || chosen(h)) continue;
      tainted = true;
      taintedBy.add(from);
    }
    if (tainted && !taintedFields.includes(leaf.field)) taintedFields.push(leaf.field);
  }
  const allow = [...policy.allowDestinations, ...allowDomains].map((a) => a.toLowerCase());
  const known = (leaf: ArgumentLeaf) => [...leafKeys(leaf.value)].some((k) => chosen(hash(k)));
  const unknown = reading.destinations.filter((d) => !allowListed(d, allow) && !known(d)).map((d) => d.field);
  if (reading.destinations.length === 0) unknown.push('(no destination named)');
  // An amount is chosen like a destination: written by the user or found in their own records, never made up after
  // untrusted content (an instruction can spell it in words the value trace cannot follow).
  if (state.untrustedSeen) unknown.push(...reading.amounts.filter((a) => !known(a)).map((a) => a.field));
  if (taintedFields.length === 0 && unknown.length === 0) return { allowed: true };

  const flow = state.untrustedSeen ? 'untrusted_to_sink' : 'private_to_sink';
  const blamed = taintedBy.size > 0 ? [...taintedBy].map((i) => state.sources[i]) : state.sources.filter((s) => s.kind === (flow === 'untrusted_to_sink' ? 'untrusted' : 'private'));
  return {
    allowed: false,
    flow,
    sink,
    tainted_by: blamed.slice(-MAX_TAINTED_BY).map((s) => ({ tool: s.tool, ...(s.callId ? { call_id: s.callId } : {}) })),
    tainted_fields: taintedFields.slice(0, MAX_FIELDS),
    unknown_destinations: [...new Set(unknown)].slice(0, MAX_FIELDS),
  };
}

/** A destination on the allow-list: an exact value, or an address or URL on a listed domain (or a sub-domain). */
function allowListed(leaf: ArgumentLeaf, allow: readonly string[]): boolean {
  if (allow.length === 0 || typeof leaf.value !== 'string') return false;
  const v = leaf.value.trim().toLowerCase().replace(/^[#@]/, '');
  const host = v.includes('@') && !v.includes('/') ? v.slice(v.lastIndexOf('@') + 1) : urlHost(v);
  return allow.some((a) => a === v || a === v.replace(/\s+/g, '') || (host !== undefined && (host === a || host.endsWith(`.${a}`))));
}
