import { randomBytes } from 'node:crypto';
import { readChat } from '../../src/flows/conversation.js';
import { decide } from '../helpers/flow-decide.js';
import { FlowState } from '../../src/flows/state.js';
import { DEFAULT_FLOW_POLICY, type FlowDecision, type FlowPolicy } from '../../src/flows/types.js';
import { hasher } from '../../src/flows/values.js';

/** Shared by the flow-core tests: a chat conversation read into a state, and the decision on one call after it. */
export const hash = hasher(randomBytes(32));

export interface Step {
  tool: string;
  args?: object;
  result: string;
}

export interface Scenario {
  system?: string;
  user: string;
  steps: Step[];
  policy?: Partial<FlowPolicy>;
}

export function stateOf(s: Scenario): FlowState {
  const policy = { ...DEFAULT_FLOW_POLICY, ...s.policy };
  const state = new FlowState(hash);
  readChat(state, policy, [
    ...(s.system ? [{ role: 'system', content: s.system }] : []),
    { role: 'user', content: s.user },
    ...s.steps.flatMap((step, i) => [
      { role: 'assistant', content: null, tool_calls: [{ id: `c${i}`, type: 'function', function: { name: step.tool, arguments: JSON.stringify(step.args ?? {}) } }] },
      { role: 'tool', tool_call_id: `c${i}`, content: step.result },
    ]),
  ]);
  return state;
}

export function decideAfter(s: Scenario, tool: string, args: object): FlowDecision {
  return decide(stateOf(s), { ...DEFAULT_FLOW_POLICY, ...s.policy }, hash, { tool, arguments: JSON.stringify(args) });
}
