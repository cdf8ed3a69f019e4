import type { FlowCall } from '../../flows/decide.js';
import type { FlowRefusal } from '../../flows/types.js';
import type { FlowDestinations } from '../../storage/flows.js';

const MAX_VALUES = 8;
const MAX_VALUE_CHARS = 256;

/**
 * The values behind a refused call's destination fields (dotted paths into its JSON arguments; `(arguments)` for a
 * call whose arguments are not JSON, such as a command line), bounded, for the approver to see where the data would go.
 */
export function destinationsOf(call: FlowCall, refusal: FlowRefusal): FlowDestinations {
  let args: unknown;
  try {
    args = JSON.parse(call.arguments);
  } catch {
    args = undefined;
  }
  const fields = [...new Set([...refusal.unknown_destinations, ...refusal.tainted_fields])].filter((f) => f === '(arguments)' || !f.startsWith('('));
  const values: FlowDestinations['values'] = [];
  for (const field of fields.slice(0, MAX_VALUES)) {
    const value = field === '(arguments)' ? (args === undefined ? call.arguments : args) : at(args, field.split('.'));
    if (value === undefined) continue;
    values.push({ field: field.slice(0, 128), value: (typeof value === 'string' ? value : JSON.stringify(value)).slice(0, MAX_VALUE_CHARS) });
  }
  return { server: call.server ?? null, values };
}

function at(value: unknown, path: string[]): unknown {
  let here = value;
  for (const key of path) {
    if (here === null || typeof here !== 'object') return undefined;
    here = (here as Record<string, unknown>)[key];
  }
  return here;
}
