import { declaredInside, isPublicHost, ownHost, policyBoundary } from './boundary.js';
import { destinationUnits, type Unit } from './destinations.js';
import { hostAndParents } from './kinds/host.js';
import { ownSystemTool, sinkByLabel } from './labels.js';
import type { CallFacts } from './call-facts.js';
import { traceOf } from './exits.js';
import { readCall, type ArgumentLeaf } from './sink.js';
import { ownRecordKey, type FlowState } from './state.js';
import { isObject, parseArguments } from '../inspect/effects/args/json.js';
import { leavesOf } from '../inspect/effects/args/leaves.js';
import { rawAccountValues } from '../inspect/effects/args/payments.js';
import type { FlowDecision, FlowPolicy } from './types.js';
import { leafKeys, type Hasher } from './values.js';

/**
 * The decision for one tool call. Nothing but a sink is ever refused. A sink passes while the conversation holds
 * neither untrusted content nor private data (the user's own request). Once it does, a sink passes only when every
 * destination it names is inside the trust boundary (boundary.ts: the organisation's own hosts) or was chosen — named
 * by the user or the app, found in a private or internal result that did not merely echo the model's own arguments,
 * or on the tenant's allow-list — and no destination or amount carries a value that came only from untrusted results.
 * A field naming several destinations is chosen only when each of them is (destinations.ts). A sink with no
 * destination the guard can read is refused: it cannot be shown to go where the user chose. After untrusted content
 * an amount must be chosen the same way, except in the organisation's own systems (an expense filed with a
 * receipt's figures stays inside).
 */

export interface FlowCall {
  tool: string;
  /** The MCP server the tool belongs to, for per-server labels. */
  server?: string;
  /** The call's arguments as sent (a JSON text, or a command line). */
  arguments: string;
  /**
   * What an inspection thread read in the arguments (call-facts.ts). Needed once the decision reads the arguments
   * (the conversation has seen untrusted content or private data, or a correction reads them); see `withFacts`.
   */
  facts?: CallFacts;
}

/** The call's facts; a caller that decides without them has skipped `withFacts` (a bug, never a pass). */
export function factsOf(call: FlowCall): CallFacts {
  if (!call.facts) throw new Error(`flow decision on ${call.tool} without the facts of its arguments`);
  return call.facts;
}

const MAX_TAINTED_BY = 8;
const MAX_FIELDS = 16;

export function decide(state: FlowState, policy: FlowPolicy, hash: Hasher, call: FlowCall, allowDomains: readonly string[] = []): FlowDecision {
  // Nothing seen yet: the user's own request, whatever the call does (its arguments are not even read).
  if (!policy.enabled || (!state.untrustedSeen && !state.privateSeen)) return { allowed: true };
  const byLabel = sinkByLabel(policy, call.tool, call.server);
  if (byLabel === 'internal') return { allowed: true };
  const reading = readCall(call.arguments, call.tool, traceOf(state, hash), factsOf(call));
  const sink = byLabel ?? reading.sinkEffect;
  if (sink === undefined) return { allowed: true };
  const ownSystem = byLabel === undefined && ownSystemTool(policy, call.tool, call.server);
  // In the organisation's own systems only payment accounts are destinations (a lead's e-mail is recorded, not sent to).
  const destinations = ownSystem ? payoutLeaves(call.arguments) : reading.destinations;
  if (ownSystem && destinations.length === 0) return { allowed: true };

  const boundary = policyBoundary(policy.ownDomains, allowDomains, policy.internalHosts);
  const allow = policy.allowDestinations.map((a) => a.toLowerCase());
  const keyChosen = (k: string) => {
    const h = hash(k);
    return state.named.has(h) || state.trusted.has(h);
  };
  // Chosen itself: the value was named, found in the user's own records, allow-listed, or is inside the boundary (an IP
  // address written in another notation only when the policy itself declares it inside: no app writes one).
  const chosenItself = (u: Unit) => u.keys.some(keyChosen) || allowListed(u, allow) || (u.host !== undefined && (u.disguisedIp ? declaredInside(boundary, u.host) : ownHost(boundary, state.own, hash, u.host)));
  // Or on a host the user named (or a private result showed), unless anyone can have an address there. Such a unit is
  // known, but a value of it that came from an untrusted result still taints it (an injection naming another address
  // on a contact's domain).
  const onChosenHost = (u: Unit) => u.host !== undefined && !u.disguisedIp && !isPublicHost(u.host) && hostAndParents(u.host).some((h) => keyChosen(`host:${h}`));
  const taintedBy = new Set<number>();
  const taintedFields: string[] = [];
  const unknown: string[] = [];
  const judge = (leaf: ArgumentLeaf, units: Unit[]) => {
    let tainted = false;
    for (const u of units) {
      if (chosenItself(u)) continue;
      if (!onChosenHost(u) && !unknown.includes(leaf.field)) unknown.push(leaf.field);
      for (const k of u.keys) {
        const from = state.untrusted.get(hash(k));
        if (from === undefined) continue;
        tainted = true;
        taintedBy.add(from);
      }
    }
    if (units.length === 0 && !unknown.includes(leaf.field)) unknown.push(leaf.field);
    if (tainted && !taintedFields.includes(leaf.field)) taintedFields.push(leaf.field);
  };
  const units = destinations.map((leaf) => destinationUnits(leaf.value));
  destinations.forEach((leaf, i) => judge(leaf, units[i]));
  if (destinations.length === 0) unknown.push('(no destination named)');
  // Money moved to the user's own accounts, cards, loans or bills stays on their side: its amount is theirs to choose.
  const toOwnRecords = units.length > 0 && units.every((us) => us.length > 0 && us.every((u) => u.keys.some((k) => state.trusted.has(hash(ownRecordKey(k))))));
  // An amount is chosen like a destination: written by the user or found in their own records, never made up after
  // untrusted content (an instruction can spell it in words the value trace cannot follow). Before untrusted
  // content an amount only counts when it came from untrusted results (it cannot have: none were seen).
  if (!ownSystem && !toOwnRecords) {
    for (const leaf of reading.amounts) {
      const keys = [...leafKeys(leaf.value)];
      const unit: Unit = { kind: 'number', keys, text: String(leaf.value) };
      if (state.untrustedSeen) judge(leaf, [unit]);
    }
  }
  if (taintedFields.length === 0 && unknown.length === 0) return { allowed: true };

  const flow = state.untrustedSeen ? 'untrusted_to_sink' : 'private_to_sink';
  const blamed = taintedBy.size > 0 ? [...taintedBy].map((i) => state.sources[i]) : state.sources.filter((s) => s.kind === (flow === 'untrusted_to_sink' ? 'untrusted' : 'private'));
  return {
    allowed: false,
    flow,
    sink,
    tainted_by: blamed.slice(-MAX_TAINTED_BY).map((s) => ({ tool: s.tool, ...(s.callId ? { call_id: s.callId } : {}) })),
    tainted_fields: taintedFields.slice(0, MAX_FIELDS),
    unknown_destinations: unknown.slice(0, MAX_FIELDS),
  };
}

/** The leaves that name a payment account (an account field, an IBAN or crypto address, wherever it is). */
function payoutLeaves(argumentsText: string): ArgumentLeaf[] {
  const parsed = parseArguments(argumentsText.slice(0, 256 * 1024));
  if (!isObject(parsed) && !Array.isArray(parsed)) return [];
  return leavesOf(parsed).filter((l) => rawAccountValues([l]).length > 0).map((l) => ({ field: l.path.join('.') || '(arguments)', value: l.value }));
}

/** A destination on the allow-list: an exact value, or an address or URL on a listed domain (or a sub-domain). */
function allowListed(unit: Unit, allow: readonly string[]): boolean {
  if (allow.length === 0) return false;
  const v = unit.text.replace(/\s+/g, '');
  return allow.some((entry) => {
    const a = entry.replace(/^[#@]/, '');
    return a === unit.text || a === v || (unit.host !== undefined && hostAndParents(unit.host).includes(a.replace(/^\*\./, '')));
  });
}
