import { judgeToolCall } from '../inspect/effects/judge.js';
import { networkTargets, type NetworkTarget } from '../inspect/effects/shell/network.js';
import { callLeaves, leafField } from './call-leaves.js';

/**
 * What a tool call's arguments say whatever the conversation holds: the effect the effect judge reads in the whole
 * call, and where its command lines reach the network. Both need the bash grammar (tree-sitter), so they are read on
 * an inspection thread (src/workers/inspect-task.ts, `readCalls`) and handed to the flow decision, which runs on the
 * main thread and never loads the grammar there. What the conversation has seen is applied to these facts afterwards
 * (sink.ts, exits.ts).
 */

export interface CallFacts {
  /** The first outbound effect (exfiltration, export, forward, payment, public) the effect judge reads in the call. */
  judged?: string;
  /** Each network target of a command line among the traced leaves, in leaf order, with the field it was read from. */
  targets: (NetworkTarget & { field: string })[];
}

export interface CallToRead {
  tool: string;
  arguments: string;
}

const OUTBOUND_EFFECTS = /exfil|export|forward|payment|secret_exfiltration|public/;
const MAX_SHELL_LEAF = 64 * 1024;
const MAX_TARGETS = 64;

export function readCallFacts(tool: string, argumentsText: string): CallFacts {
  const { text, traced } = callLeaves(argumentsText);
  // The whole call (`{name, arguments}`): the effect judge reads the tool's name beside its arguments (update_payee).
  const judged = judgeToolCall(tool ? JSON.stringify({ name: tool, arguments: text }) : text).find((f) => OUTBOUND_EFFECTS.test(f.effect))?.effect;
  const targets: CallFacts['targets'] = [];
  for (const l of traced) {
    if (typeof l.value !== 'string' || !/[a-z]/i.test(l.value) || l.value.length > MAX_SHELL_LEAF) continue;
    for (const target of networkTargets(l.value)) if (targets.length < MAX_TARGETS) targets.push({ ...target, field: leafField(l) });
  }
  return judged === undefined ? { targets } : { judged, targets };
}
