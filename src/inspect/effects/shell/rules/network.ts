import { classifyPath } from '../../paths.js';
import { hostOf, isExfilHost, isExternalHost, mentionsSecret } from '../../secret-refs.js';
import { commands, finding } from '../../settings.js';
import type { ShellCommand, ShellScript } from '../../types.js';
import { inlineCode } from '../read.js';
import { baseName } from '../unwrap.js';
import type { CommandRule } from './emit.js';
import { isSensitiveRead } from './files.js';
import { operands, readTargets, writeTargets } from './targets.js';

/**
 * Network effects: download-and-execute (ATT&CK T1105 + T1059.004), decode-and-execute (T1140), reverse shells
 * (GTFOBins reverse-shell functions, T1059), uploads of credentials, environment variables or files to external
 * hosts (T1048, T1041, T1567) and DNS exfiltration (T1048.003).
 */

const NET_TOOLS = new Set(['nc', 'ncat', 'netcat', 'telnet', 'openssl', 'socat', 'cryptcat', 'sbd', 'pwncat']);
const ENV_DUMPERS = new Set(['env', 'printenv', 'set', 'export', 'declare', 'compgen']);
const DNS_TOOLS = new Set(['dig', 'nslookup', 'host', 'drill', 'ping', 'traceroute']);

function upstream(cmd: ShellCommand, limit = 6): ShellCommand[] {
  const out: ShellCommand[] = [];
  for (let c = cmd.pipeIn; c && out.length < limit; c = c.pipeIn) out.push(c);
  return out;
}

const nameOf = (c: ShellCommand): string => baseName(c.name);
/** A command that turns an encoded payload back into text: base64/base32 -d, xxd -r, openssl -d, uudecode, gunzip, rot13 through tr. */
function isDecoder(c: ShellCommand): boolean {
  const name = nameOf(c);
  if (!commands.decoders.has(name)) return false;
  switch (name) {
    case 'base64':
    case 'base32':
      return c.args.some((a) => /^-(d|D|-decode|[a-zA-Z]*d)$/.test(a));
    case 'xxd':
      return c.args.some((a) => /^-[a-z]*r/.test(a));
    case 'openssl':
    case 'gzip':
    case 'bzip2':
    case 'xz':
      return c.args.some((a) => a === '-d' || a === '--decompress');
    case 'tr':
      return c.args.some((a) => /n-za-m/i.test(a));
    default:
      return true;
  }
}
const runsStdin = (c: ShellCommand): boolean =>
  (commands.interpreters.has(c.name) && !inlineCode(c) && (c.args.includes('-s') || operands(c).filter((a) => a !== '-').length === 0)) || c.name === 'source' || c.name === '.';

export const downloadExecute: CommandRule = (cmd, script, emit) => {
  if (runsStdin(cmd) || (commands.interpreters.has(cmd.name) && cmd.args.includes('-'))) {
    const feeders = upstream(cmd);
    if (feeders.some((c) => commands.downloaders.has(nameOf(c)))) emit(finding('pipe-to-shell', 'download_execute', `downloaded content piped into ${cmd.name}`));
    else if (feeders.some(isDecoder)) emit(finding('decode-to-shell', 'decode_execute', `decoded content piped into ${cmd.name}`));
  }
  if (codeArgs(cmd).some((a) => a.includes('$(') || a.includes('<(') || a.includes('`'))) {
    const inner = script.commands.filter((c) => c.substituted);
    if (inner.some((c) => commands.downloaders.has(c.name))) emit(finding('substitution-to-shell', 'download_execute', `downloaded content run by ${cmd.name}`));
    else if (inner.some(isDecoder)) emit(finding('decode-substitution-to-shell', 'decode_execute', `decoded content run by ${cmd.name}`));
  }
  const code = inlineCode(cmd);
  if (code && /\b(exec|eval|iex|invoke-expression)\b[^\n]{0,200}(urlopen|urllib|requests\.|http\.client|net\.webclient|downloadstring|invoke-webrequest|\biwr\b|\birm\b|open-uri|lwp::simple|get\(|fetch\()/i.test(code.slice(0, 4096))) {
    emit(finding('inline-download-exec', 'download_execute', `${cmd.name} evaluates downloaded code`));
  }
  if (code && /\b(exec|eval)\s{0,4}\(\s{0,4}[^\n]{0,80}(b64decode|base64|decode\(|frombase64string|unhexlify|codecs\.decode|zlib\.decompress)/i.test(code.slice(0, 4096))) {
    emit(finding('inline-decode-exec', 'decode_execute', `${cmd.name} evaluates decoded code`));
  }
};

/** The arguments a command runs as code: all of eval/source's, a shell's `-c` string or its script operand. */
function codeArgs(cmd: ShellCommand): string[] {
  if (cmd.name === 'eval' || cmd.name === 'source' || cmd.name === '.') return cmd.args;
  if (!commands.interpreters.has(cmd.name)) return [];
  const c = cmd.args.findIndex((a) => /^-[a-z]*c$/i.test(a));
  const code = inlineCode(cmd) ?? (commands.shells.has(cmd.name) && c >= 0 ? cmd.args[c + 1] : undefined);
  const script = operands(cmd)[0];
  return [code, script?.startsWith('<(') ? script : undefined].filter((a): a is string => a !== undefined);
}

/** Files fetched by a downloader and later made executable or run: `curl -o x … && chmod +x x && ./x`. */
export function downloadThenRun(script: ShellScript): boolean {
  const fetched = new Set<string>();
  for (const c of script.commands) {
    if (!commands.downloaders.has(c.name)) continue;
    for (const w of writeTargets(c)) fetched.add(baseName(w.path));
    if (c.name === 'wget' && !c.args.some((a) => a === '-O' || a.startsWith('--output-document'))) {
      for (const a of operands(c)) if (a.includes('://')) fetched.add(baseName(a.split('?')[0]));
    }
  }
  fetched.delete('');
  if (fetched.size === 0) return false;
  return script.commands.some((c) => {
    if (fetched.has(c.name)) return true;
    if (c.name === 'chmod' && /\+[rw]*x|^[0-7]?[1357][0-7]{2}$/.test(operands(c)[0] ?? '')) return operands(c).slice(1).some((p) => fetched.has(baseName(p)));
    if (commands.interpreters.has(c.name)) return operands(c).some((p) => fetched.has(baseName(p)));
    return false;
  });
}

const SOCKET_CODE = /socket|fsockopen|tcpsocket|io::socket|net\.socket|net\.connect|createconnection|\/inet\/tcp|\/dev\/tcp/i;
const SPAWN_CODE = /subprocess|pty\.spawn|dup2|\bexec[a-z]*\b|\/bin\/(ba)?sh|\bsystem\b|\bspawn\b|child_process|popen|cmd\.exe|proc_open/i;

export const reverseShell: CommandRule = (cmd, _script, emit) => {
  const devTcp = [...cmd.redirects.map((r) => r.target), ...cmd.args].filter((t) => /^\/dev\/(tcp|udp)\//.test(t));
  if (devTcp.length > 0) {
    const interactive = commands.shells.has(cmd.name) || cmd.name === 'exec' || cmd.redirects.some((r) => r.op.includes('&') || r.op === '<>' || /^[0-9]$/.test(r.target));
    emit(interactive ? finding('dev-tcp-shell', 'reverse_shell', 'shell bound to a /dev/tcp socket') : finding('dev-tcp', 'raw_socket', 'opens a raw /dev/tcp socket'));
  }
  if (NET_TOOLS.has(cmd.name)) {
    for (let i = 0; i < cmd.args.length; i++) {
      const a = cmd.args[i];
      const next = cmd.args[i + 1] ?? '';
      const shellArg = commands.interpreters.has(baseName(next.split(' ')[0])) || /\bsh\b|bash|cmd\.exe|powershell/.test(next);
      if ((/^-[a-z]*[ec]$/i.test(a) && shellArg) || /^--(exec|sh-exec|lua-exec)/.test(a)) emit(finding('netcat-exec', 'reverse_shell', `${cmd.name} executes a shell for the connection`));
      if (cmd.name === 'socat' && /^(exec|system):/i.test(a)) emit(finding('socat-exec', 'reverse_shell', 'socat connects a socket to a program'));
    }
  }
  const chain = upstream(cmd);
  if ((NET_TOOLS.has(cmd.name) && chain.some((c) => commands.shells.has(c.name))) || (commands.shells.has(cmd.name) && chain.some((c) => NET_TOOLS.has(c.name)))) {
    emit(finding('shell-pipe-socket', 'reverse_shell', 'a shell is piped to a network connection'));
  }
  const code = inlineCode(cmd) ?? (cmd.name === 'awk' || cmd.name === 'gawk' ? cmd.args.join(' ') : undefined);
  if (code) {
    const head = code.slice(0, 4096);
    if (SOCKET_CODE.test(head) && SPAWN_CODE.test(head)) emit(finding('inline-reverse-shell', 'reverse_shell', `${cmd.name} one-liner connects a socket to a shell`));
  }
};

/** What a command sends, when it sends something sensitive: env dumps, credential files, secret variables. */
function sensitivePayload(cmd: ShellCommand, script: ShellScript): string | undefined {
  const feeders = upstream(cmd);
  if (feeders.some((c) => ENV_DUMPERS.has(c.name) && operands(c).length === 0)) return 'the environment';
  if (feeders.some((c) => isSensitiveRead(c))) return 'a credential file';
  if (isSensitiveRead(cmd)) return 'a credential file';
  if ([cmd, ...feeders].some(readsWholeTree)) return 'a home or system tree';
  const data = dataArgs(cmd);
  if (data.some((a) => a.includes('$(') || a.includes('`'))) {
    const inner = script.commands.filter((c) => c.substituted);
    if (inner.some((c) => ENV_DUMPERS.has(c.name) && operands(c).length === 0)) return 'the environment';
    if (inner.some(isSensitiveRead)) return 'a credential file';
  }
  if (data.some((a) => /\/proc\/(self|[0-9]+)\/environ/.test(a))) return 'the environment';
  if (data.some((a) => mentionsSecret(a))) return 'a secret variable';
  return undefined;
}

/** Archiving or copying a whole home, system directory or the root: everything on it leaves together. */
function readsWholeTree(cmd: ShellCommand): boolean {
  if (!['tar', 'zip', '7z', 'cat', 'scp', 'rsync', 'cpio', 'dd'].includes(cmd.name)) return false;
  return readTargets(cmd).some((p) => {
    const c = classifyPath(p);
    return c.has('root') || c.has('home') || c.has('system');
  });
}

/** Arguments that become request data or URL: everything but option names and header values. */
function dataArgs(cmd: ShellCommand): string[] {
  const out: string[] = [];
  for (let i = 0; i < cmd.args.length; i++) {
    const a = cmd.args[i];
    if (a === '-H' || a === '--header' || a === '-u' || a === '--user' || a === '-A' || a === '--user-agent') {
      i++;
      continue;
    }
    out.push(a);
  }
  return out;
}

export const exfiltration: CommandRule = (cmd, script, emit) => {
  if (DNS_TOOLS.has(cmd.name) && operands(cmd).some((a) => /(\$\(|`)[^\n]{0,200}\.[a-z]{2,}/i.test(a) || /\$\{?[A-Za-z_]+\}?\.[a-z0-9-]+\.[a-z]{2,}/i.test(a))) {
    emit(finding('dns-exfil', 'dns_exfiltration', `${cmd.name} resolves a name built from command output`));
  }
  if (!commands.uploaders.has(cmd.name)) return;
  const hosts = destinations(cmd);
  const external = hosts.length === 0 ? NET_TOOLS.has(cmd.name) || cmd.name === 'curl' || cmd.name === 'wget' : hosts.some(isExternalHost);
  if (!external) return;
  if (cmd.name === 'ssh' && !cmd.pipeIn) return;
  const payload = sensitivePayload(cmd, script);
  const toExfilHost = hosts.some(isExfilHost);
  if (payload) {
    const header = !dataArgs(cmd).some((a) => mentionsSecret(a)) && payload === 'a secret variable';
    if (!header) emit(finding('send-secret', 'secret_exfiltration', `${cmd.name} sends ${payload} to an external host`));
    return;
  }
  const sendsData = cmd.pipeIn !== undefined || readTargets(cmd).length > 0 || cmd.args.some((a) => /^(-d|--data.*|-F|--form|-T|--upload-file|--post-file|--post-data|--body-file|-X|--request)$/.test(a));
  const remoteCopy = (cmd.name === 'scp' || cmd.name === 'rsync') && operands(cmd).slice(0, -1).some((p) => !p.includes(':'));
  if (sendsData && toExfilHost) emit(finding('send-to-exfil-host', 'exfil_host_upload', `${cmd.name} sends data to a request-capture or file-drop host`));
  else if (sendsData && (cmd.args.some((a) => /^(-F|--form|-T|--upload-file|--post-file|--body-file)$/.test(a) || /^@/.test(a)) || (NET_TOOLS.has(cmd.name) && readTargets(cmd).length > 0) || remoteCopy)) {
    emit(finding('upload-file', 'file_upload', `${cmd.name} uploads a file`));
  }
};

/** Hosts a command talks to: URL arguments, `host port` for socket tools, `user@host:` for copies. */
function destinations(cmd: ShellCommand): string[] {
  const out: string[] = [];
  const ops = operands(cmd);
  for (const a of ops) {
    const h = hostOf(a);
    if (h) out.push(h);
  }
  if (NET_TOOLS.has(cmd.name) && out.length === 0) {
    const host = ops.find((a) => /^[a-z0-9.-]+$/i.test(a) && /[a-z.]/i.test(a) && !/^[0-9]+$/.test(a));
    if (host) out.push(host.toLowerCase());
  }
  if (cmd.name === 'ssh') {
    const target = ops.find((a) => /^([^@\s/]{1,64}@)?[a-z0-9-]{1,63}(\.[a-z0-9-]{1,63})+$/i.test(a));
    return target ? [target.slice(target.indexOf('@') + 1).toLowerCase()] : [];
  }
  if (cmd.name === 'scp' || cmd.name === 'rsync' || cmd.name === 'sftp') {
    for (const a of ops) {
      const m = /^(?:[^@/\s]{1,64}@)?([a-z0-9.-]{1,253}):/i.exec(a);
      if (m) out.push(m[1].toLowerCase());
    }
  }
  if (out.length === 0 && classifyPath(ops[ops.length - 1] ?? '').size > 0) return [];
  return out;
}
