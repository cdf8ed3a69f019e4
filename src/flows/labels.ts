import defaults from '../../config/flow-labels.json' with { type: 'json' };
import { isObject, parseArguments } from '../inspect/effects/args/json.js';
import { leavesOf } from '../inspect/effects/args/leaves.js';
import type { FlowPolicy, LabelRule, SourceKind } from './types.js';

/**
 * Which label applies to a tool: the tenant's rules first (in order; a rule naming a server applies only to that MCP
 * server's tools), then the default name patterns of config/flow-labels.json. A call's sink-ness and a result's kind
 * are read separately: `http_request` brings untrusted content in with a GET and sends data out with a POST.
 */

const MAX_PATTERN = 128;

/** A glob over lower-cased names: `*` any run of characters, everything else literal. */
export function globMatch(pattern: string, name: string): boolean {
  const p = pattern.toLowerCase().slice(0, MAX_PATTERN);
  const n = name.toLowerCase();
  const parts = p.split('*');
  if (parts.length === 1) return p === n;
  if (!n.startsWith(parts[0]) || !n.endsWith(parts[parts.length - 1])) return false;
  let at = parts[0].length;
  const end = n.length - parts[parts.length - 1].length;
  for (const part of parts.slice(1, -1)) {
    const i = n.indexOf(part, at);
    if (i < 0 || i + part.length > end) return false;
    at = i + part.length;
  }
  return at <= end;
}

const SELF_IGNORED: ReadonlySet<string> = new Set(defaults.selfArgumentsIgnored.map((k) => k.replace(/[_.-]/g, '')));
const SELF_VALUES: ReadonlySet<string> = new Set(defaults.selfValues);

/**
 * Whether a call's arguments name someone (a user id, a handle, an address, a URL): a profile read for them is their
 * record, not the user's. Arguments that cannot be read name someone.
 */
export function argumentsNameSomeone(argumentsText: string | undefined): boolean {
  if (argumentsText === undefined || argumentsText.trim() === '') return false;
  const parsed = parseArguments(argumentsText.slice(0, 64 * 1024));
  if (!isObject(parsed)) return true;
  return leavesOf(parsed).some((l) => {
    if (l.path.some((k) => SELF_IGNORED.has(k))) return false;
    if (typeof l.value === 'boolean') return false;
    const v = String(l.value).trim().toLowerCase();
    return v !== '' && !SELF_VALUES.has(v);
  });
}

const any = (patterns: readonly string[], name: string) => patterns.some((p) => globMatch(p, name));

/** The tenant's own label for a tool, if it wrote one. */
export function tenantLabel(policy: FlowPolicy, tool: string, server?: string): LabelRule['label'] | undefined {
  for (const rule of policy.labels) {
    if (rule.server !== undefined && rule.server !== server) continue;
    if (globMatch(rule.tool, tool)) return rule.label;
  }
  return undefined;
}

/**
 * What a tool's result is to the conversation. Unknown tools are untrusted: content of unknown origin. A default
 * `self` tool (a profile, whoami) returns the user's own record only when its call named no one else (`namesOther`).
 */
export function resultKind(policy: FlowPolicy, tool: string, server?: string, namesOther = false): SourceKind {
  const label = tenantLabel(policy, tool, server);
  if (label === 'private_source') return 'private';
  if (label === 'internal') return 'internal';
  if (label !== undefined) return 'untrusted';
  if (any(defaults.self, tool)) return namesOther ? 'untrusted' : 'private';
  if (any(defaults.private, tool)) return 'private';
  if (any(defaults.internal, tool) && !any(defaults.untrusted, tool)) return 'internal';
  return 'untrusted';
}

/**
 * A tool of the organisation's own systems by the defaults (`ownSystem`: expenses, timesheets): what it records stays
 * inside, so its amounts are not traced; the destinations its arguments name (a reimbursement IBAN) still are.
 */
export function ownSystemTool(policy: FlowPolicy, tool: string, server?: string): boolean {
  return tenantLabel(policy, tool, server) === undefined && any(defaults.ownSystem, tool);
}

/** A tool listing the user's own accounts, cards, loans or bills (`ownAccounts`): money moved to them stays the user's. */
export const ownAccountsTool = (tool: string): boolean => any(defaults.ownAccounts, tool);

/**
 * Whether a call is a sink by its label: `label` (the tenant said so), `internal` (the tenant said it is not, whatever
 * its arguments), `name` (a default sink pattern), or undefined (the arguments decide).
 */
export function sinkByLabel(policy: FlowPolicy, tool: string, server?: string): 'label' | 'internal' | 'name' | undefined {
  const label = tenantLabel(policy, tool, server);
  if (label === 'sink') return 'label';
  if (label === 'internal') return 'internal';
  if (label === undefined && any(defaults.sink, tool)) return 'name';
  return undefined;
}
