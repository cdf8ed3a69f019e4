import { readCallFacts } from '../../src/flows/call-facts.js';
import { decide as decideWithFacts, type FlowCall } from '../../src/flows/decide.js';
import { waiveMessageInside as waiveWithFacts } from '../../src/flows/messages-inside.js';

/**
 * The flow core's decision and correction as the gateway runs them: the call's facts read first, by the function an
 * inspection thread runs (src/flows/call-facts.ts), then decided. Tests of the pure core call these.
 */
const read = (call: FlowCall): FlowCall => ({ ...call, facts: call.facts ?? readCallFacts(call.tool, call.arguments) });

export const decide: typeof decideWithFacts = (state, policy, hash, call, allowDomains) => decideWithFacts(state, policy, hash, read(call), allowDomains);
export const waiveMessageInside: typeof waiveWithFacts = (verdict, content, call, c) => waiveWithFacts(verdict, content, read(call), c);
