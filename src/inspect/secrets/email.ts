import { PLACEHOLDERS } from './config.js';
import { PRIORITY, type Candidate } from './candidate.js';

/**
 * Email addresses (RFC 5321 local@domain, dot-atom subset). Found from each `@` by expanding
 * both ways, so the cost is linear. Not personal data: RFC 2606/6761 reserved and documentation
 * domains, `user:pass@host` URL userinfo, `git@host:repo` and `ssh user@host` login targets,
 * retina asset names (`logo@2x.png`) and package specifiers (`pkg@1.2.3`).
 */

const LOCAL_MAX = 64;
const DOMAIN_MAX = 253;
const DOC_DOMAINS = new Set(PLACEHOLDERS.emailDomains);
const RESERVED_TLDS = new Set(PLACEHOLDERS.emailReservedTlds);
const FILE_TLDS = new Set(PLACEHOLDERS.fileExtensionTlds);
/** Git commit metadata (`Author:`, `Signed-off-by:` …) is published with the commit, not personal data to scrub. */
const COMMIT_TRAILER = /(?:^|\n)[ \t]*(?:Author|Commit|Signed-off-by|Co-authored-by|Reviewed-by|Acked-by|Tested-by|Reported-by|Suggested-by):[^\n]*$/i;
const LOGIN_COMMAND = /(?:^|[\s;|&(])(?:ssh|scp|sftp|rsync|mosh|ssh-copy-id|telnet|ftp|sshpass)\s[^;|&\n]*$/;

function isLocalChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 46 || c === 95 || c === 37 || c === 43 || c === 45;
}

function isDomainChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 46 || c === 45;
}

function isPersonalDomain(domain: string): boolean {
  const lower = domain.toLowerCase();
  const labels = lower.split('.');
  if (labels.length < 2 || labels.some((l) => l.length === 0 || l.length > 63 || l.startsWith('-') || l.endsWith('-'))) return false;
  const tld = labels[labels.length - 1];
  if (!/^[a-z]{2,24}$/.test(tld) || RESERVED_TLDS.has(tld) || FILE_TLDS.has(tld)) return false;
  return !DOC_DOMAINS.has(lower) && !DOC_DOMAINS.has(labels.slice(-2).join('.')) && !lower.startsWith('example.');
}

/** `scheme://user:pass@host`: the text before the colon, up to whitespace, contains `//`. */
function isUrlUserinfo(text: string, colon: number): boolean {
  let i = colon;
  while (i > 0 && colon - i < 256 && !/\s/.test(text[i - 1])) i--;
  return text.slice(i, colon).includes('//');
}

export function scanEmails(text: string, out: Candidate[]): void {
  let at = text.indexOf('@');
  while (at !== -1) {
    let start = at;
    while (start > 0 && at - start < LOCAL_MAX && isLocalChar(text.charCodeAt(start - 1))) start--;
    let end = at + 1;
    while (end < text.length && end - at <= DOMAIN_MAX && isDomainChar(text.charCodeAt(end))) end++;
    while (end > at + 1 && (text[end - 1] === '.' || text[end - 1] === '-')) end--;
    while (start < at && text[start] === '.') start++;
    // Text glued after the address ("name@host.ioHi"): a lower-to-upper case change in the TLD ends it.
    const glued = /\.[a-z]{2,24}(?=[A-Z][a-z]*$)/.exec(text.slice(at + 1, end));
    if (glued) end = at + 1 + glued.index + glued[0].length;
    const next = Math.max(at + 1, end);
    const local = text.slice(start, at);
    const domain = text.slice(at + 1, end);
    const before = text[start - 1];
    const after = text[end];
    const valid =
      local.length > 0 &&
      !local.endsWith('.') &&
      before !== '/' && before !== '@' &&
      !(before === ':' && isUrlUserinfo(text, start - 1)) &&
      after !== '@' && !(after === ':' && local === 'git') &&
      isPersonalDomain(domain) &&
      !LOGIN_COMMAND.test(text.slice(Math.max(0, start - 120), start)) &&
      !COMMIT_TRAILER.test(text.slice(Math.max(0, start - 80), start));
    if (valid) out.push({ type: 'email', start, end, priority: PRIORITY.email, pii: true });
    at = text.indexOf('@', next);
  }
}
