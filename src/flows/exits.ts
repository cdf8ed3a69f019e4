import { getDomain } from 'tldts';
import { words, type Leaf } from '../inspect/effects/args/leaves.js';
import { hostOf, isExternalHost } from '../inspect/effects/secret-refs.js';
import type { CallFacts } from './call-facts.js';
import { leafField } from './call-leaves.js';
import type { FlowState } from './state.js';
import { valueKeys, type Hasher } from './values.js';

/**
 * The ways data leaves besides a body or an address, as a table: a GET's query, its path, its host's labels, a host
 * written as an IP literal in another notation, a DNS name, a shell fetcher, a message to a channel or a person, a
 * public link. Each row reads a call's argument leaves and says whether the call sends data out that way and where
 * it goes (the destinations the decision then matches like any other). What a conversation has seen decides two
 * things: a URL or name it already showed, used as written, carries nothing new (following a link is not leaving);
 * a value the user's own records or words hold, found in a query, path or label, is data leaving.
 */

export interface ExitLeaf {
  field: string;
  value: string | number | boolean;
}

export interface ExitFound {
  /** The sink effect: `http_query`, `url_path_data`, `host_label_data`, `ip_literal`, `dns_name`, `channel_message`, `public_link`. */
  effect: string;
  /** Where the data goes, as leaves the decision matches (a URL, a registrable domain, a channel, a visibility). */
  destinations: ExitLeaf[];
}

/** What the conversation has seen, by value key (never the values themselves). */
export interface Trace {
  /** The key appeared anywhere: the user's or app's words, or any result. */
  seen(key: string): boolean;
  /**
   * The key is a structured value the conversation holds (an address, account or digit run, an amount; an identifier
   * only from a private result): what it read or was told, now leaving.
   */
  carried(key: string): boolean;
}

export const NO_TRACE: Trace = { seen: () => false, carried: () => false };

const STRUCTURED = /^(?:email|iban|num|amount|id):/;
export function traceOf(state: FlowState, hash: Hasher): Trace {
  return {
    seen: (k) => {
      const h = hash(k);
      return state.named.has(h) || state.trusted.has(h) || state.untrusted.has(h);
    },
    carried: (k) => {
      if (!STRUCTURED.test(k)) return false;
      const h = hash(k);
      return state.trusted.has(h) || (!k.startsWith('id:') && (state.named.has(h) || state.untrusted.has(h)));
    },
  };
}

const RUNTIME = /\$\(|`|\$\{|\$[A-Za-z_]/;
// A run of base64/hex/url-safe characters with letters and digits mixed: an encoded value, not a word.
const ENCODED = /(?=[A-Za-z0-9+/_=-]{0,200}\d)(?=[A-Za-z0-9+/_=-]{0,200}[A-Za-z])[A-Za-z0-9+/_=-]{16,}/;

const decode = (s: string): string => {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
};

/** Whether a piece of a URL or name carries data: filled in at run time, encoded, or a structured private value. */
function carries(piece: string, trace: Trace): boolean {
  if (RUNTIME.test(piece)) return true;
  const text = decode(piece);
  if (ENCODED.test(text)) return true;
  return [...valueKeys(text)].some((k) => k.startsWith('email:') || k.startsWith('iban:') || k.startsWith('num:') || trace.carried(k));
}

/** The URL's host as a fetcher reads it (every IPv4 notation made dotted), and whether it was written to hide that. */
export function readHost(url: string): { host: string; obfuscated: boolean } | undefined {
  const raw = hostOf(url);
  if (!raw) return undefined;
  let host = raw;
  try {
    host = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `http://${url}`).hostname.toLowerCase();
  } catch {
    // not a URL a fetcher would read either: judged by its raw host
  }
  return { host, obfuscated: host !== raw && /^\d{1,3}(?:\.\d{1,3}){3}$/.test(host) };
}

export const isOutside = (h: { host: string; obfuscated: boolean }): boolean => h.obfuscated || isExternalHost(h.host);

const urlKey = (url: string) => [...valueKeys(url)].find((k) => k.startsWith('url:'));

/** A GET to `url`: the way it carries data out, if any. */
export function urlExit(url: string, trace: Trace): string | undefined {
  const h = readHost(url);
  if (!h || !isOutside(h)) return undefined;
  const key = urlKey(url);
  if (key && trace.seen(key) && !RUNTIME.test(url)) return undefined; // a link the conversation showed, followed as written
  if (h.obfuscated) return 'ip_literal';
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return RUNTIME.test(url) ? 'http_query' : undefined;
  }
  // A query the agent composed is data however short (`t.gif?c=<account>&v=<amount>`): the host must be chosen.
  if (u.search.slice(1).split('&').some((p) => p.slice(p.indexOf('=') + 1) !== '')) return 'http_query';
  if (u.pathname.split('/').some((seg) => seg && carries(seg, trace))) return 'url_path_data';
  const registrable = getDomain(h.host, { allowPrivateDomains: true }) ?? h.host;
  const labels = h.host.slice(0, Math.max(0, h.host.length - registrable.length - 1));
  if (labels && labels.split('.').some((l) => carries(l, trace))) return 'host_label_data';
  return undefined;
}

/** A DNS name looked up: a way out unless the conversation showed it as written; it goes to its zone's owner. */
export function dnsExit(name: string, field: string, trace: Trace): ExitFound | undefined {
  const n = name.trim().toLowerCase().replace(/\.$/, '');
  if (!/^[a-z0-9_$(){}`-]+(?:\.[a-z0-9_$(){}`-]+)+$/.test(n) || /^\d{1,3}(?:\.\d{1,3}){3}$/.test(n)) return undefined;
  if (!RUNTIME.test(n) && (trace.seen(`host:${n}`) || trace.seen(`name:${n}`))) return undefined;
  const zone = getDomain(n.replace(/^.*[$(){}`]/, 'x'), { allowPrivateDomains: true }) ?? n;
  return { effect: 'dns_name', destinations: [{ field, value: zone }] };
}

const DNS_TOOL = /dns|nslookup|resolve|lookup_?host|host_?lookup|\bdig\b|^dig_|ping|whois|traceroute/i;
const DNS_KEYS = new Set(['hostname', 'host', 'name', 'domain', 'fqdn', 'target', 'query', 'qname', 'address', 'domainname']);
const CHANNEL_KEYS = new Set(['channel', 'channelid', 'channelname', 'room', 'roomid', 'chat', 'chatid', 'conversation', 'conversationid', 'user', 'userid', 'username', 'users', 'userids', 'handle', 'dm', 'member', 'memberid', 'recipientid', 'recipientname', 'peer']);
const MESSAGE_KEYS = new Set(['text', 'message', 'body', 'content', 'blocks', 'attachments', 'markdown', 'html', 'msg', 'post']);

interface ExitInput {
  tool: string;
  /** Every leaf of the arguments. */
  leaves: Leaf[];
  /** The leaves outside prose fields (a message's body names no command that runs). */
  traced: Leaf[];
  trace: Trace;
  /** The command lines' network targets, read on an inspection thread (call-facts.ts). */
  targets: CallFacts['targets'];
}

/** The table: each row a way out, read from the call. */
const EXITS: { way: string; read(call: ExitInput): ExitFound | undefined }[] = [
  {
    way: 'shell fetcher or DNS tool in a command line',
    read: ({ targets, trace }) => {
      for (const target of targets) {
        if (target.kind === 'dns') {
          const found = dnsExit(target.target, target.field, trace);
          if (found) return found;
        } else {
          const effect = target.sendsData && isOutside(readHost(target.target) ?? { host: '', obfuscated: false }) ? 'http_with_data' : urlExit(target.target, trace);
          if (effect) return { effect, destinations: [{ field: target.field, value: target.target }] };
        }
      }
      return undefined;
    },
  },
  {
    way: 'DNS name given to a lookup tool',
    read: ({ tool, leaves, trace }) => {
      if (!DNS_TOOL.test(tool)) return undefined;
      for (const l of leaves) if (typeof l.value === 'string' && DNS_KEYS.has(l.key)) {
        const found = dnsExit(l.value, leafField(l), trace);
        if (found) return found;
      }
      return undefined;
    },
  },
  {
    way: 'message to a channel, a room or a person',
    read: ({ leaves }) => {
      const to = leaves.filter((l) => l.path.some((k) => CHANNEL_KEYS.has(k)) && typeof l.value === 'string' && l.value.trim() !== '');
      if (to.length === 0 || !leaves.some((l) => l.path.some((k) => MESSAGE_KEYS.has(k)))) return undefined;
      return { effect: 'channel_message', destinations: to.map((l) => ({ field: leafField(l), value: l.value })) };
    },
  },
  {
    way: 'access granted to a person',
    read: ({ traced }) => {
      if (!traced.some((l) => GRANT_KEYS.has(l.key))) return undefined;
      const to = traced.filter((l) => PERSON_KEYS.has(l.key) && typeof l.value === 'string' && l.value.trim() !== '');
      return to.length > 0 ? { effect: 'access_grant', destinations: to.map((l) => ({ field: leafField(l), value: l.value })) } : undefined;
    },
  },
  {
    way: 'link open to anyone',
    read: ({ traced }) => {
      const open = traced.filter((l) => words.visibility.has(l.key) && !NOT_VISIBILITY.has(l.key) && PUBLIC.test(String(l.value)));
      return open.length > 0 ? { effect: 'public_link', destinations: open.map((l) => ({ field: leafField(l), value: String(l.value) })) } : undefined;
    },
  },
];
const PERSON_KEYS = new Set(['username', 'user', 'userid', 'login', 'collaborator', 'member', 'memberid', 'grantee', 'principal', 'handle', 'invitee', 'githubuser', 'email', 'emailaddress']);
// Fields that say what access a person gets (a record's `type` or `access` alone does not).
const GRANT_KEYS = new Set(['permission', 'permissions', 'role', 'roles', 'accesslevel', 'grant', 'privilege', 'privileges']);
// A record's `type` or a person's `role` may read `public` without opening anything.
const NOT_VISIBILITY = new Set(['type', 'role']);
const PUBLIC = /^(?:public|public[-_ ]?read(?:[-_ ]?write)?|anyone(?:[-_ ]?with[-_ ]?(?:the[-_ ]?)?link)?|allusers|everyone|world|internet|unlisted)$/i;

/** The first way out the call takes, by the table's order. */
export function exitOf(tool: string, leaves: Leaf[], traced: Leaf[], trace: Trace, targets: CallFacts['targets']): ExitFound | undefined {
  for (const row of EXITS) {
    const found = row.read({ tool, leaves, traced, trace, targets });
    if (found) return found;
  }
  return undefined;
}
