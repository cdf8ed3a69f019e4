import { commands } from '../../settings.js';
import type { ShellCommand } from '../../types.js';

/**
 * Which paths a command writes, reads or deletes, by the conventions of each tool (coreutils, curl/wget, dd, sed
 * -i, tee, redirects). Options are skipped; an option that takes a value is skipped with its value where the tool
 * is known to need it.
 */

const WRITE_OPS = new Set(['>', '>>', '>|', '&>', '&>>', '>&']);
const TRUNCATE_OPS = new Set(['>', '>|', '&>', '>&']);

export function operands(cmd: ShellCommand): string[] {
  const out: string[] = [];
  let afterDashes = false;
  for (const a of cmd.args) {
    if (!afterDashes && a === '--') afterDashes = true;
    else if (afterDashes || !a.startsWith('-') || a === '-') out.push(a);
  }
  return out;
}

function isFileTarget(target: string): boolean {
  return target !== '' && !/^[0-9-]+$/.test(target);
}

/** Paths written, each with whether the write replaces the content (`>`) rather than appending. */
export function writeTargets(cmd: ShellCommand): { path: string; replaces: boolean }[] {
  const out: { path: string; replaces: boolean }[] = [];
  for (const r of cmd.redirects) if (WRITE_OPS.has(r.op) && isFileTarget(r.target)) out.push({ path: r.target, replaces: TRUNCATE_OPS.has(r.op) });
  const ops = operands(cmd);
  switch (cmd.name) {
    case 'tee':
      for (const p of ops) out.push({ path: p, replaces: !cmd.args.includes('-a') && !cmd.args.includes('--append') });
      break;
    case 'cp':
    case 'mv':
    case 'install':
    case 'ln':
    case 'rsync':
    case 'scp':
    case 'ditto': {
      const dest = targetDirectoryOption(cmd) ?? ops[ops.length - 1];
      if (ops.length >= 2 || targetDirectoryOption(cmd)) {
        out.push({ path: dest, replaces: true });
        // The destination may be a directory (`cp key /etc/cron.d/`): the file lands there under its own name.
        const sources = targetDirectoryOption(cmd) ? ops : ops.slice(0, -1);
        for (const src of sources.slice(0, 8)) out.push({ path: `${dest.replace(/\/+$/, '')}/${src.split('/').pop()}`, replaces: true });
      }
      break;
    }
    case 'dd':
      for (const a of cmd.args) if (a.startsWith('of=')) out.push({ path: a.slice(3), replaces: true });
      break;
    case 'sed':
    case 'perl':
      if (cmd.args.some((a) => /^-[a-z]*i/.test(a) || a.startsWith('--in-place'))) for (const p of ops.slice(1)) out.push({ path: p, replaces: true });
      break;
    case 'truncate':
      for (const p of ops) out.push({ path: p, replaces: true });
      break;
    case 'curl':
    case 'wget':
      for (let i = 0; i < cmd.args.length - 1; i++) if (['-o', '-O', '--output', '--output-document'].includes(cmd.args[i]) && cmd.args[i + 1] !== '-') out.push({ path: cmd.args[i + 1], replaces: true });
      break;
  }
  return out;
}

function targetDirectoryOption(cmd: ShellCommand): string | undefined {
  const i = cmd.args.findIndex((a) => a === '-t' || a === '--target-directory');
  if (i >= 0) return cmd.args[i + 1];
  const eq = cmd.args.find((a) => a.startsWith('--target-directory='));
  return eq?.slice('--target-directory='.length);
}

/** Paths a command reads: operands of readers (after the pattern for grep/sed/awk), `<` redirects, `dd if=`, `@file` uploads. */
export function readTargets(cmd: ShellCommand): string[] {
  const out: string[] = [];
  for (const r of cmd.redirects) if (r.op === '<' && isFileTarget(r.target)) out.push(r.target);
  for (const a of cmd.args) {
    if (a.startsWith('if=') && cmd.name === 'dd') out.push(a.slice(3));
    const at = a.indexOf('@');
    if (at >= 0 && (at === 0 || a[at - 1] === '=') && a.length > at + 1 && !a.includes('://')) out.push(a.slice(at + 1));
  }
  if (commands.readers.has(cmd.name)) {
    const ops = operands(cmd);
    const skipFirst = ['grep', 'egrep', 'fgrep', 'rg', 'awk', 'gawk', 'sed'].includes(cmd.name) && ops.length > 1 && !cmd.args.includes('-e') && !cmd.args.includes('-f');
    out.push(...(skipFirst ? ops.slice(1) : ops));
  }
  for (let i = 0; i < cmd.args.length - 1; i++) {
    if (['-T', '--upload-file', '--post-file', '--body-file', '-in', '-infile', '--data-binary', '--data', '-d'].includes(cmd.args[i])) {
      const v = cmd.args[i + 1];
      out.push(v.startsWith('@') ? v.slice(1) : v);
    }
  }
  return out.filter((p) => p !== '' && p !== '-');
}

/** Paths removed or emptied: rm-like operands, `truncate`, `> file` with no command, `cp /dev/null file`, `ln -sf /dev/null file`. */
export function deleteTargets(cmd: ShellCommand): string[] {
  if (commands.deleters.has(cmd.name) && cmd.name !== 'truncate') return operands(cmd).filter((p) => !(cmd.name === 'gio' && p === 'trash'));
  const out: string[] = [];
  if (cmd.name === 'truncate') out.push(...operands(cmd));
  if (cmd.name === '' || cmd.name === ':' || cmd.name === 'true' || (cmd.name === 'echo' && cmd.args.every((a) => a === '' || a === '-n')) || (cmd.name === 'cat' && cmd.args[0] === '/dev/null')) {
    for (const r of cmd.redirects) if (TRUNCATE_OPS.has(r.op) && isFileTarget(r.target)) out.push(r.target);
  }
  if ((cmd.name === 'cp' || cmd.name === 'ln' || cmd.name === 'mv') && cmd.args.includes('/dev/null')) {
    const ops = operands(cmd);
    if (cmd.name === 'mv') out.push(...ops.filter((p) => p !== '/dev/null'));
    else if (ops[0] === '/dev/null' && ops[1]) out.push(ops[1]);
  }
  return out;
}

export function hasRecursiveFlag(cmd: ShellCommand): boolean {
  return cmd.args.some((a) => a === '--recursive' || /^-[a-zA-Z]*[rR]/.test(a));
}
