import flowConfig from '../../config/flow-labels.json' with { type: 'json' };
import { normKey, paymentWords, words, type Leaf } from '../inspect/effects/args/leaves.js';
import { accountDomains, placeDomain } from '../inspect/effects/args/recipients.js';
import { isExternalHost } from '../inspect/effects/secret-refs.js';
import type { CallFacts } from './call-facts.js';
import { callLeaves } from './call-leaves.js';
import { exitOf, isOutside, readHost, urlExit, type Trace } from './exits.js';

/**
 * How a call's arguments send data out, read with the effect judge whatever the tool is called: a payment (an amount
 * with payment words), an e-mail or share to an address, an HTTP request with data to an outside host, a shell
 * `curl`/`wget` with a body, and anything the effect judge itself reads as exfiltration, a bulk export, a mail
 * forward or a payment; then the other ways out of exits.ts (a GET's query or path, a DNS name, a shell fetcher, a
 * message to a channel, a public link), which also add where they go to the destinations. Also which argument leaves name where the data goes (destinations) and which carry values
 * (amount fields): the decision matches both against the conversation's state. Prose fields (a body, a subject)
 * are what a sink sends, not where it goes: they are read by neither.
 */

const DESTINATION: ReadonlySet<string> = new Set([...flowConfig.destinationKeys.map(normKey), ...words.recipient, ...words.rawAccount, ...words.knownPayee]);
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,253}$/;
const URLISH = /^(?:https?|ftp|wss?):\/\//i;
const SHELL_SEND = /\b(?:curl|wget|http|httpie|nc|ncat|scp|rsync|sftp)\b[^|;&]*?(?:\s-d\b|\s--data|\s-F\b|\s--form|\s-T\b|\s--upload-file|\s-X\s*(?:POST|PUT|PATCH)|\s--post-data|\s--post-file|\s--body|@)[^|;&]*?((?:https?:\/\/)?[a-z0-9-]+(?:\.[a-z0-9-]+)+)/i;

export interface ArgumentLeaf {
  /** Field path, lower-cased, dot-joined (names only, for the verdict). */
  field: string;
  value: string | number | boolean;
}

export interface CallReading {
  /** Why the arguments make this call a sink, or undefined. */
  sinkEffect?: string;
  /** Leaves that name where the data goes (recipients, URLs, channels, payees, accounts). */
  destinations: ArgumentLeaf[];
  /** Leaves that say how much (amount fields). */
  amounts: ArgumentLeaf[];
}

/**
 * `facts`: what the inspection thread read in the call (call-facts.ts: the effect judge's reading and the command
 * lines' network targets); what the conversation has seen (`trace`) is applied to them here.
 */
export function readCall(argumentsText: string, tool: string, trace: Trace, facts: CallFacts): CallReading {
  const { text, leaves, traced } = callLeaves(argumentsText);
  const values = traced.map((l) => ({ field: l.path.join('.') || '(arguments)', value: l.value }));
  const destinations = values.filter((l, i) => traced[i].path.some((k) => DESTINATION.has(k)) || (typeof l.value === 'string' && (EMAIL.test(l.value.trim()) || URLISH.test(l.value.trim()))));
  const amounts = values.filter((_, i) => traced[i].path.some((k) => words.amount.has(k)));
  const exit = exitOf(tool, leaves, traced, trace, facts.targets);
  for (const d of exit?.destinations ?? []) if (!destinations.some((x) => x.field === d.field && x.value === d.value)) destinations.push(d);
  return { sinkEffect: sinkEffect(text, facts, leaves, destinations, trace) ?? exit?.effect, destinations, amounts };
}

function sinkEffect(text: string, facts: CallFacts, leaves: Leaf[], destinations: ArgumentLeaf[], trace: Trace): string | undefined {
  if (facts.judged) return facts.judged;
  const amount = leaves.some((l) => l.path.some((k) => words.amount.has(k)) && (typeof l.value === 'number' ? l.value > 0 : /[1-9]/.test(String(l.value))));
  if (amount && (paymentWords.test(text.replace(/[_.-]/g, ' ')) || leaves.some((l) => l.path.some((k) => words.currency.has(k) || words.rawAccount.has(k))))) return 'payment';
  const own = accountDomains(leaves);
  for (const d of destinations) {
    if (typeof d.value !== 'string') continue;
    const v = d.value.trim();
    // An address on the account's own domains (from, mailbox … fields) stays inside; unknown standing is outside.
    if (EMAIL.test(v) && placeDomain(v.slice(v.indexOf('@') + 1), own) !== 'inside') return 'message_to_address';
    if (URLISH.test(v)) {
      const host = readHost(v);
      const sendsBody = leaves.some((l) => /^(post|put|patch)$/i.test(String(l.value)) || l.path.some((k) => ['body', 'data', 'json', 'payload', 'form'].includes(k)));
      if (host && isOutside(host) && sendsBody) return 'http_with_data';
      // A GET carries data in its query, its path or its host's labels as well as a body does (`?d=<what it read>`).
      const exit = urlExit(v, trace);
      if (exit) return exit;
    }
  }
  for (const l of leaves) {
    if (typeof l.value !== 'string') continue;
    const m = SHELL_SEND.exec(l.value);
    if (m) {
      const host = m[1].replace(/^https?:\/\//i, '');
      if (isExternalHost(host)) return 'http_with_data';
    }
  }
  return undefined;
}
