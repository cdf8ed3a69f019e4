import { PRIORITY, type Candidate } from './candidate.js';
import { isEnvReference, isPlaceholderValue } from './placeholders.js';

/**
 * Passwords on command lines, where the flag rather than a key name marks them:
 * `mysql -p'…'` / `-p…` (attached only: `mysql -p db` prompts), `mongosh -p …`, `sshpass -p …`,
 * `redis-cli -a …`, `docker login -p …`, `curl -u user:pass`, `smbclient -U user%pass`,
 * `aws configure set aws_secret_access_key …` (and the session token).
 * `--password …` style flags are covered by the keyword scanner.
 */

const COMMAND_RE =
  /(?<![\w./-])(mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mysqlcheck|mysqlsh|mariadb|mariadb-dump|mongo|mongosh|mongodump|mongorestore|mongoexport|mongoimport|sshpass|redis-cli|docker|podman|nerdctl|helm|curl|smbclient|aws)(?![\w-])/g;
const MAX_SEGMENT = 2048;

interface Arg {
  start: number;
  end: number;
  raw: string;
}

/** Whitespace-separated arguments up to the end of the command (newline, `;`, `&&`, `|`). */
function splitArgs(text: string, from: number): Arg[] {
  const args: Arg[] = [];
  const limit = Math.min(text.length, from + MAX_SEGMENT);
  let i = from;
  while (i < limit) {
    const c = text[i];
    if (c === '\n' || c === ';' || c === '|' || (c === '&' && text[i + 1] === '&')) break;
    if (c === ' ' || c === '\t') {
      i++;
      continue;
    }
    const start = i;
    let quote = '';
    while (i < limit) {
      const ch = text[i];
      if (quote) {
        if (ch === quote) quote = '';
      } else if (ch === '"' || ch === "'") quote = ch;
      else if (ch === ' ' || ch === '\t' || ch === '\n' || ch === ';' || ch === '|') break;
      i++;
    }
    args.push({ start, end: i, raw: text.slice(start, i) });
  }
  return args;
}

/** Strip one level of shell quotes, keeping offsets. */
function unquote(text: string, start: number, end: number): { start: number; end: number } {
  const q = text[start];
  if ((q === '"' || q === "'") && end - start >= 2 && text[end - 1] === q) return { start: start + 1, end: end - 1 };
  return { start, end };
}

function push(text: string, start: number, end: number, out: Candidate[], after = ''): void {
  const span = unquote(text, start, end);
  let s = span.start;
  if (after) {
    const idx = text.slice(span.start, span.end).indexOf(after);
    if (idx < 0) return;
    s = span.start + idx + 1;
  }
  const value = text.slice(s, span.end);
  // `$(…)` and backticks substitute a command's output: a reference, not a literal password.
  if (value.length < 4 || value.startsWith('`') || isEnvReference(value) || isPlaceholderValue(value)) return;
  if (/^[a-z]+$/.test(value) && value.length < 8) return;
  out.push({ type: 'password', start: s, end: span.end, priority: PRIORITY.shell });
}

/** Value of `-X` either attached (`-Xvalue`) or, when `separate`, the next argument. */
function flagValue(text: string, args: Arg[], flag: string, separate: boolean, out: Candidate[], after = ''): void {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.raw.startsWith(flag) && a.raw.length > flag.length) push(text, a.start + flag.length, a.end, out, after);
    else if (a.raw === flag && separate && args[i + 1]) push(text, args[i + 1].start, args[i + 1].end, out, after);
  }
}

export function scanShellCredentials(text: string, out: Candidate[]): void {
  COMMAND_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = COMMAND_RE.exec(text)) !== null) {
    const cmd = m[1];
    const args = splitArgs(text, m.index + cmd.length);
    if (args.length > 0) COMMAND_RE.lastIndex = Math.max(COMMAND_RE.lastIndex, args[args.length - 1].end);
    if (cmd.startsWith('mysql') || cmd.startsWith('mariadb')) flagValue(text, args, '-p', false, out);
    else if (cmd.startsWith('mongo') || cmd === 'sshpass') flagValue(text, args, '-p', true, out);
    else if (cmd === 'redis-cli') flagValue(text, args, '-a', true, out);
    else if (cmd === 'curl') {
      flagValue(text, args, '-u', true, out, ':');
      flagValue(text, args, '--user', true, out, ':');
    } else if (cmd === 'smbclient') flagValue(text, args, '-U', true, out, '%');
    else if (cmd === 'aws') awsConfigureSecret(text, args, out);
    else if (args.some((a) => a.raw === 'login' || a.raw === 'add')) flagValue(text, args, '-p', true, out);
  }
}

/** `aws configure set aws_secret_access_key VALUE` / `aws_session_token VALUE`: the value is the secret. */
function awsConfigureSecret(text: string, args: Arg[], out: Candidate[]): void {
  if (args[0]?.raw !== 'configure' || args[1]?.raw !== 'set') return;
  const key = args[2]?.raw.replace(/^["']|["']$/g, '').replace(/^[a-z0-9_-]+\./i, '').toLowerCase();
  if ((key === 'aws_secret_access_key' || key === 'aws_session_token') && args[3]) push(text, args[3].start, args[3].end, out);
}
