import { readShell } from './read.js';

/**
 * Where a command line reaches the network: the URLs its fetchers request (curl, wget, httpie, PowerShell's
 * Invoke-WebRequest …, with whether they send a body or upload a file), the hosts raw socket tools connect to, and
 * the names its DNS tools look up (nslookup, dig, host, ping …: a name looked up is a query its zone's owner sees).
 * Read with the shell reader, so quoting, `bash -c` and substitutions are unwrapped first; a substitution inside an
 * argument is kept as written (`$(…)`): the caller reads it as data filled in at run time.
 */

export interface NetworkTarget {
  kind: 'fetch' | 'dns';
  /** A URL (fetch) or a host name (dns). */
  target: string;
  /** The fetch sends data besides its URL (a body, a form, an upload, a non-GET method, a raw socket). */
  sendsData: boolean;
}

const FETCHERS = new Set(['curl', 'wget', 'http', 'https', 'xh', 'xhs', 'httpie', 'aria2c', 'lynx', 'w3m', 'links', 'elinks', 'fetch', 'invoke-webrequest', 'iwr', 'invoke-restmethod', 'irm', 'wget2', 'curlie']);
const SOCKETS = new Set(['nc', 'ncat', 'netcat', 'socat', 'telnet']);
const DNS = new Set(['nslookup', 'dig', 'host', 'drill', 'ping', 'ping6', 'traceroute', 'traceroute6', 'tracepath', 'mtr', 'whois', 'kdig', 'delv']);
const SEND_FLAG = /^(?:-d|--data(?:-[a-z]+)?|-F|--form(?:-string)?|-T|--upload-file|--post-data|--post-file|--body(?:-file)?|--json|-InFile|-Body)$|^-d.|^--data(?:-[a-z]+)?=|^--json=|^--post-(?:data|file)=/i;
const METHOD_FLAG = /^(?:-X|--request|--method|-Method)$/i;
const WRITE_METHOD = /^(?:POST|PUT|PATCH|DELETE)$/i;
const URLISH = /^(?:[a-z][a-z0-9+.-]{0,15}:\/\/)?[^\s/@:]*[a-z0-9$)}`][^\s/]*\.[^\s/]+(?:[/?#:].*)?$/i;
const RECORD_TYPES = /^(?:a|aaaa|mx|txt|ns|cname|soa|srv|ptr|caa|any|axfr|ds|dnskey|in|ch)$/i;
const NAMEISH = /^[^\s/@]*\.[^\s/@]+$/;
const PRECHECK = /(?:^|[\s;&|(`'"=])(?:curl|wget2?|https?|xh|xhs|httpie|aria2c|lynx|w3m|e?links|fetch|invoke-webrequest|iwr|invoke-restmethod|irm|curlie|nc|ncat|netcat|socat|telnet|nslookup|dig|kdig|delv|host|drill|ping6?|traceroute6?|tracepath|mtr|whois|getent|resolvectl)(?=$|[\s;&|)`'"])/i;
// Flags whose next argument is a value (a file, a header, a proxy), not the URL requested.
const VALUE_FLAG = /^-[oOHAbcuexKEwPUa]$|^--(?:output|header|user-agent|cookie|cookie-jar|config|cert|key|cacert|proxy|user|referer|output-document|directory-prefix)$/;
const MAX_TARGETS = 32;

export function networkTargets(text: string): NetworkTarget[] {
  if (!PRECHECK.test(text)) return [];
  const out: NetworkTarget[] = [];
  for (const c of readShell(text).commands) {
    if (out.length >= MAX_TARGETS) break;
    const name = c.name.toLowerCase().replace(/^.*[\\/]/, '').replace(/\.exe$/, '');
    const args = c.args;
    if (FETCHERS.has(name)) {
      let sends = false;
      const urls: string[] = [];
      args.forEach((a, i) => {
        if (SEND_FLAG.test(a)) sends = true;
        else if (METHOD_FLAG.test(a) && WRITE_METHOD.test(args[i + 1] ?? '')) sends = true;
        else if (/^(?:-X|--request=)(?:POST|PUT|PATCH)$/i.test(a)) sends = true;
        else if (!a.startsWith('-') && URLISH.test(a) && !(i > 0 && VALUE_FLAG.test(args[i - 1]))) urls.push(a);
      });
      for (const u of urls) out.push({ kind: 'fetch', target: /^[a-z][a-z0-9+.-]{0,15}:\/\//i.test(u) ? u : `http://${u}`, sendsData: sends });
    } else if (SOCKETS.has(name)) {
      const host = args.find((a) => !a.startsWith('-') && NAMEISH.test(a.replace(/^[a-z0-9-]+:/i, '')));
      if (host) out.push({ kind: 'fetch', target: `http://${host.replace(/^[a-z0-9-]+:/i, '').replace(/[:,].*$/, '')}/`, sendsData: true });
    } else if (DNS.has(name) || (name === 'getent' && args[0] === 'hosts') || (name === 'resolvectl' && args[0] === 'query')) {
      const names = args.filter((a) => !a.startsWith('-') && !a.startsWith('+') && !a.startsWith('@') && !RECORD_TYPES.test(a) && NAMEISH.test(a));
      for (const n of names) out.push({ kind: 'dns', target: n, sendsData: false });
    }
  }
  return out;
}
