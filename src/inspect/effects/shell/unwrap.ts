import { classifyPath } from '../paths.js';
import { commands } from '../settings.js';
import type { ShellCommand } from '../types.js';

/**
 * Removes wrappers so the judge sees the command that runs: `sudo -u root env X=1 nohup nice -n 5 rm …` → `rm …`
 * (elevated). Returns the nested script strings the command runs (`bash -c '…'`, `eval …`, `su -c '…'`,
 * `ssh host '…'`, a heredoc fed to a shell) for the caller to re-read one level deeper, and the commands that
 * `find -exec`/`-delete` and `xargs` run, with the paths they would receive.
 */

/** Options that take a value, per wrapper (so the value is not mistaken for the command). */
const VALUE_OPTIONS: Record<string, ReadonlySet<string>> = {
  sudo: new Set(['-u', '-g', '-h', '-p', '-c', '-C', '-D', '-r', '-t', '-U', '-T', '-R']),
  doas: new Set(['-u', '-C']),
  env: new Set(['-u', '-C', '--unset', '--chdir']),
  nice: new Set(['-n', '--adjustment']),
  ionice: new Set(['-c', '-n', '-p', '-t']),
  timeout: new Set(['-s', '-k', '--signal', '--kill-after']),
  strace: new Set(['-o', '-e', '-p', '-s', '-u', '-E']),
  ltrace: new Set(['-o', '-e', '-p', '-s', '-u']),
  watch: new Set(['-n', '-d', '--interval']),
  runuser: new Set(['-u', '-g', '-G', '-l']),
  'systemd-run': new Set(['-p', '-u', '--unit', '--property', '-M', '-H', '--uid', '--gid']),
  stdbuf: new Set(['-i', '-o', '-e']),
  flock: new Set(['-w', '-E', '-c']),
};
/** Wrappers followed by one positional value before the command. */
const POSITIONAL = new Set(['timeout', 'chroot', 'flock', 'taskset', 'chrt']);
const SSH_VALUE_OPTIONS = new Set(['-p', '-i', '-l', '-o', '-F', '-J', '-L', '-R', '-D', '-b', '-c', '-E', '-e', '-m', '-O', '-Q', '-S', '-W', '-w', '-B', '-P']);
const XARGS_VALUE_OPTIONS = new Set(['-I', '-i', '-n', '-P', '-L', '-l', '-s', '-d', '-E', '-e', '-a']);
/** find tests that narrow what a `-exec`/`-delete` touches (ATT&CK T1485 tests delete whole trees: no filter). */
const FIND_FILTERS = new Set(['-name', '-iname', '-path', '-ipath', '-wholename', '-regex', '-iregex', '-newer', '-mtime', '-mmin', '-atime', '-amin', '-ctime', '-cmin', '-size', '-user', '-group', '-perm', '-inum', '-empty', '-links', '-samefile', '-uid', '-gid', '-lname', '-newermt']);

const NAME_TESTS = new Set(['-name', '-iname', '-path', '-ipath', '-wholename']);
/** A name glob that matches everything or a whole file type: `*`, `*.*`, `*.so*`, `*conf`. */
const BROAD_NAME = /^\*[^/*]{0,16}\*?$/;

export function baseName(word: string): string {
  const slash = word.lastIndexOf('/');
  return (slash >= 0 ? word.slice(slash + 1) : word).toLowerCase();
}

export interface Unwrapped {
  command: ShellCommand;
  /** Script strings this command runs, to be read one level deeper. */
  nested: string[];
  /** Commands run per file by find/xargs, already unwrapped of their own prefix. */
  spawned: ShellCommand[];
}

export function unwrap(input: ShellCommand): Unwrapped {
  const cmd: ShellCommand = { ...input, args: [...input.args], assignments: [...input.assignments] };
  let words = [cmd.name, ...cmd.args];
  for (let guard = 0; guard < 16 && words.length > 0; guard++) {
    const name = baseName(words[0]);
    if (name === 'busybox' && words.length > 1) {
      words = words.slice(1);
      continue;
    }
    if (!commands.wrappers.has(name)) break;
    if (name === 'sudo' || name === 'doas' || name === 'runuser') cmd.elevated = true;
    let i = 1;
    const valued = VALUE_OPTIONS[name];
    while (i < words.length) {
      const w = words[i];
      if (w === '--') {
        i++;
        break;
      }
      if (name === 'env' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) {
        const eq = w.indexOf('=');
        cmd.assignments.push([w.slice(0, eq), w.slice(eq + 1)]);
        i++;
      } else if (w.startsWith('-') && w.length > 1) {
        i += valued?.has(w) ? 2 : 1;
      } else break;
    }
    if (POSITIONAL.has(name) && i < words.length) i++;
    if (name === 'sudo' && i >= words.length && words.some((w) => w === '-i' || w === '-s')) words = ['sh'];
    else if (name === 'chroot' && i >= words.length) words = ['sh'];
    else if (i >= words.length) break; // `env`, `time` … alone: the wrapper is the command
    else words = words.slice(i);
  }
  cmd.name = words.length > 0 ? baseName(words[0]) : '';
  cmd.args = words.slice(1);
  const result: Unwrapped = { command: cmd, nested: [], spawned: [] };
  nestedScripts(cmd, result);
  if (cmd.name === 'find') findActions(cmd, result);
  if (cmd.name === 'xargs') xargsCommand(cmd, result);
  return result;
}

function nestedScripts(cmd: ShellCommand, out: Unwrapped): void {
  const { name, args } = cmd;
  if (commands.shells.has(name)) {
    const c = args.findIndex((a) => /^-[a-z]*c[a-z]*$/i.test(a) && !a.startsWith('--'));
    if (c >= 0 && c + 1 < args.length) out.nested.push(args[c + 1]);
    for (const r of cmd.redirects) if (r.op === '<<' || r.op === '<<<') out.nested.push(r.target);
  } else if (name === 'trap' && args.length >= 2 && args[0] !== '-' && !args[0].startsWith('-')) {
    // `trap 'cmd' EXIT`: the string runs when the signal arrives.
    out.nested.push(args[0]);
  } else if (name === 'eval') {
    out.nested.push(args.join(' '));
  } else if (name === 'su') {
    cmd.elevated = true;
    const c = args.findIndex((a) => a === '-c' || a === '--command');
    if (c >= 0 && c + 1 < args.length) out.nested.push(args[c + 1]);
  } else if (name === 'ssh') {
    let i = 0;
    while (i < args.length && args[i].startsWith('-')) i += SSH_VALUE_OPTIONS.has(args[i]) ? 2 : 1;
    if (i + 1 < args.length) out.nested.push(args.slice(i + 1).join(' '));
  }
}

/** `find ROOTS… -exec cmd {} \;` runs `cmd` on paths under ROOTS; `-delete` removes them. */
function findActions(cmd: ShellCommand, out: Unwrapped): void {
  const scope = findScope(cmd);
  for (let i = scope.firstTest; i < cmd.args.length; i++) {
    const a = cmd.args[i];
    if (a === '-delete') {
      out.spawned.push(spawn(cmd, 'rm', ['-r', ...targets(scope, scope.filtered)]));
    } else if (a === '-exec' || a === '-execdir' || a === '-ok' || a === '-okdir') {
      let j = i + 1;
      const words: string[] = [];
      while (j < cmd.args.length && cmd.args[j] !== ';' && cmd.args[j] !== '+') words.push(cmd.args[j++]);
      if (words.length > 0) {
        const name = baseName(words[0]);
        // Secure deletion of every file under a root is a wipe whatever the filter; plain rm respects it.
        const paths = targets(scope, scope.filtered && !isSecureDeleter(name));
        const args = words.slice(1).flatMap((w) => (w === '{}' ? paths : [w]));
        adopt(out, unwrap(spawn(cmd, words[0], args)));
      }
      i = j;
    }
  }
}

interface FindScope {
  roots: string[];
  firstTest: number;
  filtered: boolean;
  namePattern: string;
}

function findScope(cmd: ShellCommand): FindScope {
  const roots: string[] = [];
  let i = 0;
  while (i < cmd.args.length && !cmd.args[i].startsWith('-') && cmd.args[i] !== '(' && cmd.args[i] !== '!') roots.push(cmd.args[i++]);
  if (roots.length === 0) roots.push('.');
  const scope: FindScope = { roots, firstTest: i, filtered: false, namePattern: 'x' };
  let narrow = false;
  for (let j = i; j < cmd.args.length; j++) {
    const a = cmd.args[j];
    if (!FIND_FILTERS.has(a)) continue;
    scope.filtered = true;
    const pattern = cmd.args[j + 1] ?? '';
    if ((a === '-name' || a === '-iname') && pattern) scope.namePattern = pattern;
    if (!(NAME_TESTS.has(a) && BROAD_NAME.test(pattern))) narrow = true;
  }
  // `-name '*'` filters nothing, and `-name '*.conf'` over the root or a system directory sweeps the system.
  if (scope.filtered && !narrow && roots.some((r) => { const c = classifyPath(r); return c.has('root') || c.has('system'); })) scope.filtered = false;
  return scope;
}

function isSecureDeleter(name: string): boolean {
  return commands.secureDeleters.has(name);
}

function targets(scope: FindScope, filtered: boolean): string[] {
  return filtered ? scope.roots.map((r) => `${r.replace(/\/$/, '')}/…/${scope.namePattern}`) : scope.roots;
}

/** `producer | xargs cmd args`: cmd receives the producer's paths (find roots, ls/echo arguments). */
function xargsCommand(cmd: ShellCommand, out: Unwrapped): void {
  let i = 0;
  while (i < cmd.args.length && cmd.args[i].startsWith('-')) i += XARGS_VALUE_OPTIONS.has(cmd.args[i]) ? 2 : 1;
  if (i >= cmd.args.length) return;
  const producer = cmd.pipeIn ? unwrap(cmd.pipeIn).command : undefined;
  let paths: string[] = [];
  if (producer?.name === 'find') {
    const scope = findScope(producer);
    paths = targets(scope, scope.filtered && !isSecureDeleter(baseName(cmd.args[i])));
  } else if (producer && ['ls', 'echo', 'printf', 'locate'].includes(producer.name)) {
    paths = producer.args.filter((a) => !a.startsWith('-')).slice(0, 8);
  }
  adopt(out, unwrap(spawn(cmd, cmd.args[i], [...cmd.args.slice(i + 1), ...paths])));
}

/** A command run by find/xargs, with the scripts it runs in turn (`xargs sh -c '…'`). */
function adopt(out: Unwrapped, inner: Unwrapped): void {
  out.spawned.push(inner.command, ...inner.spawned);
  out.nested.push(...inner.nested);
}

function spawn(parent: ShellCommand, name: string, args: string[]): ShellCommand {
  return { name, args, redirects: [], assignments: [], elevated: parent.elevated, substituted: parent.substituted, depth: parent.depth, pipeIn: parent.pipeIn };
}
