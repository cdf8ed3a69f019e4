import { isModelReading } from '../inspect/model-reading.js';
import { redact } from '../inspect/redact.js';
import type { Flag } from '../inspect/types.js';
import { ownHost, policyBoundary } from './boundary.js';
import { factsOf, type FlowCall } from './decide.js';
import { destinationUnits } from './destinations.js';
import { NO_TRACE } from './exits.js';
import { readCall } from './sink.js';
import type { FlowState } from './state.js';
import { blocksBesides, type CallVerdict, type DetectionPolicy } from './typed-values.js';
import type { FlowPolicy } from './types.js';
import type { Hasher } from './values.js';

/**
 * A message to the people the user named inside the organisation: the report of a phishing mail to the security team
 * names the lure's domain or link, and reads to the tool-call model like a call that sends something dangerous. When
 * every destination of the call was typed by the user or the app and is inside the trust boundary (the policy's own
 * domains and internal hosts, hosts the app named), two readings of its content no longer block: the phishing finding
 * on a lure URL (what the report is about, not a lure for its reader) and the statistical tool-call model alone
 * (no indicator, effect, pattern or credential). A destination the agent took from a result (a contact list, the mail
 * itself), one outside the boundary beside a typed one, any other blocking finding, a credential under secret_mode
 * "block" or a shadow-banned caller keeps the block; the flow decision then judges the call as any other sink.
 */

export interface Correction {
  state: FlowState;
  hash: Hasher;
  detection: DetectionPolicy;
  policy: FlowPolicy;
  allowDomains: readonly string[];
}

const isLure = (f: Flag): boolean => f.layer === 'phishing' && f.type === 'phishing_url';
const waivable = (f: Flag): boolean => isLure(f) || isModelReading(f, 'dangerous_command');

/** `content`: what the judge read (its secrets' offsets are in it); `call`: the tool and its arguments. */
export function waiveMessageInside<V extends CallVerdict>(verdict: V, content: string, call: FlowCall, c: Correction): V {
  if (verdict.action !== 'block' || verdict.ers?.shadow_banned || !verdict.flags.some(waivable)) return verdict;
  if (blocksBesides(verdict, c.detection, waivable)) return verdict;
  const destinations = readCall(call.arguments, call.tool, NO_TRACE, factsOf(call)).destinations;
  if (destinations.length === 0) return verdict;
  const boundary = policyBoundary(c.policy.ownDomains, c.allowDomains, c.policy.internalHosts);
  const typedInside = destinations.every((d) => {
    const units = destinationUnits(d.value);
    return units.length > 0 && units.every((u) => u.host !== undefined && u.keys.some((k) => c.state.named.has(c.hash(k))) && ownHost(boundary, c.state.own, c.hash, u.host));
  });
  if (!typedInside) return verdict;
  const redacting = verdict.secrets.length > 0;
  return { ...verdict, allowed: true, action: redacting ? 'redact' : 'allow', redacted_content: redacting ? redact(content, verdict.secrets, []) : content };
}
