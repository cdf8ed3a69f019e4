import type { FlowRefusal } from '../../flows/types.js';
import type { FlowDestinations } from '../../storage/flows.js';

/**
 * A flow decision in plain words, for the app (the refusal text beside `bastion.flow`) and for the approver (the
 * console and the CLI): what the call would do and why nobody chose it. Tool and field names only, never a value.
 */
const MAX_NAMES = 3;
const names = (list: readonly string[]) => {
  const unique = [...new Set(list.map((n) => n.slice(0, 64)))];
  return unique.length > MAX_NAMES ? `${unique.slice(0, MAX_NAMES).join(', ')} and ${unique.length - MAX_NAMES} more` : unique.join(', ');
};

function why(refusal: FlowRefusal): string {
  const read = refusal.flow === 'private_to_sink' ? 'private data' : 'content from outside';
  const from = refusal.tainted_by.length ? ` (${names(refusal.tainted_by.map((s) => s.tool))})` : '';
  const fields = refusal.unknown_destinations.filter((f) => !f.startsWith('('));
  const where = fields.length ? ` (${names(fields)})` : '';
  return `after the conversation read ${read}${from}, it would send data to a destination${where} that nobody in the conversation chose`;
}

/** What the app is told, as short as a request-stage block's text. */
export function refusalText(tool: string, refusal: FlowRefusal, status: 'refused' | 'pending' | 'flagged'): string {
  const head = status === 'pending' ? `Bastion is holding the call to ${tool.slice(0, 64)} until a tenant admin approves it` : `Bastion refused the call to ${tool.slice(0, 64)}`;
  return `${head}: ${why(refusal)}.`;
}

/** What the approver reads: the same reason, with where the data would go when the decision kept it. */
export function decisionSummary(tool: string, refusal: FlowRefusal, destinations: FlowDestinations | null): string {
  const on = destinations?.server ? ` on the MCP server ${destinations.server}` : '';
  const to = destinations?.values.length ? ` It would go to ${destinations.values.map((d) => `${d.value} (${d.field})`).join(', ')}.` : '';
  return `${tool.slice(0, 64)}${on}: ${why(refusal)}.${to}`;
}
