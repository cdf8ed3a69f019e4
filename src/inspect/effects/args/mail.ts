import { finding } from '../settings.js';
import type { EffectFinding } from '../types.js';
import { deleteValues, isTrue, ruleWords, words, type Leaf } from './leaves.js';
import { emailDomains, placeDomain, worst } from './recipients.js';

/**
 * Mail forwarding rules (ATT&CK T1114.003, T1564.008), read from the arguments of any tool: a persistent forward
 * or redirect (`forwardTo`, `redirectTo`, `forwardingAddress`, an auto-forward, a filter whose action is
 * `forward`) to an address outside the account's own domains blocks, and so does one to an address of unknown
 * standing that also deletes, archives or hides the original. An unknown address alone is flagged; an internal
 * one passes, as does forwarding one message (a message id and no rule).
 */

const ACTION_KEYS = new Set(['action', 'actions', 'type', 'operation', 'op', 'kind']);
const FOLDER_KEYS = new Set(['movetofolder', 'destinationfolder', 'folder', 'folderid', 'disposition', 'removelabelids', 'addlabelids', 'labelids']);

/** Returns true when the call is a forwarding rule whose every recipient is inside (the judge vouches for it). */
export function judgeMailRule(leaves: Leaf[], own: ReadonlySet<string>, text: string, out: EffectFinding[]): boolean {
  if (!text.includes('@')) return false;
  const forwardAction = leaves.some((l) => typeof l.value === 'string' && l.path.some((k) => ACTION_KEYS.has(k)) && /^(forward|redirect|auto-?forward|forwardto|redirectto)$/i.test(l.value.trim()));
  const recipients: string[] = [];
  for (const l of leaves) {
    if (typeof l.value !== 'string') continue;
    const forwardPath = l.path.some((k) => words.forward.has(k));
    const actionRecipient = forwardAction && l.path.some((k) => words.recipient.has(k) || k === 'to');
    if (forwardPath || actionRecipient) recipients.push(...emailDomains(l.value));
  }
  if (recipients.length === 0) return false;
  const rule = leaves.some((l) => l.path.some((k) => words.rule.has(k))) || ruleWords.test(text) || leaves.some((l) => l.path.some((k) => words.forward.has(k) && k !== 'forward'));
  const oneMessage = leaves.some((l) => l.path.some((k) => words.singleMessage.has(k)));
  const ruleKeyed = leaves.some((l) => l.path.some((k) => words.rule.has(k)));
  if (!rule || (oneMessage && !ruleKeyed)) return false;
  const hides = leaves.some((l) => {
    if (l.path.some((k) => words.deleteKeys.has(k)) && isTrue(l.value)) return true;
    return typeof l.value === 'string' && l.path.some((k) => FOLDER_KEYS.has(k) || ACTION_KEYS.has(k)) && (deleteValues.has(l.value.trim().toLowerCase()) || /^inbox$/i.test(l.value.trim()) && l.path.includes('removelabelids'));
  });
  const where = worst(recipients.map((d) => placeDomain(d, own)));
  const tail = hides ? ' and hides or deletes the original' : '';
  if (where === 'outside' || (where === 'unknown' && hides)) out.push(finding('mail-forward-outside', 'mail_forward_outside', `mail rule forwards to an outside address${tail}`));
  else if (where === 'unknown') out.push(finding('mail-forward-unverified', 'mail_forward_unverified', 'mail rule forwards to an address of unknown domain'));
  return where === 'inside';
}
