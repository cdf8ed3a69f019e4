import { defaultBranches } from '../../cloud-settings.js';
import { finding } from '../../settings.js';
import type { ShellCommand, ShellScript } from '../../types.js';
import type { Emit } from './emit.js';

/**
 * Git history destruction (ATT&CK T1485 against a repository): a force push that rewrites a default branch
 * (config/cloud-effects.json `defaultBranches`, or every branch with `--all`/`--mirror`) in the same script as a
 * history rewrite (`reset --hard` to an older commit, rebase, amend, filter-branch/filter-repo, an orphan
 * checkout) blocks; deleting a default branch on the remote blocks; a force push to a default branch with no
 * rewrite in sight is flagged. `--force-with-lease` on a feature branch and `git reset --hard` alone pass.
 */

/** Global options of `git` that take a value (`git -C dir push …`). */
const GLOBAL_VALUE = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env']);

interface GitCall {
  sub: string;
  args: string[];
}

function gitCall(cmd: ShellCommand): GitCall | undefined {
  if (cmd.name !== 'git') return undefined;
  let i = 0;
  while (i < cmd.args.length && cmd.args[i].startsWith('-')) i += GLOBAL_VALUE.has(cmd.args[i]) ? 2 : 1;
  if (i >= cmd.args.length) return undefined;
  return { sub: cmd.args[i].toLowerCase(), args: cmd.args.slice(i + 1) };
}

const positional = (args: string[]): string[] => args.filter((a) => !a.startsWith('-'));

/** A reset to the upstream (`origin/main`, `@{u}`) or HEAD itself discards local work, not published history. */
function rewritesHistory(g: GitCall): boolean {
  switch (g.sub) {
    case 'reset': {
      if (!g.args.some((a) => a === '--hard' || a === '--keep' || a === '--soft' || a === '--mixed')) return false;
      const target = positional(g.args)[0] ?? 'HEAD';
      if (/[~^]/.test(target)) return true;
      return !/^(head|@)$/i.test(target) && !/^[a-z0-9_.-]+\/|@\{u(pstream)?\}/i.test(target);
    }
    case 'rebase':
      return !g.args.some((a) => a === '--abort' || a === '--continue' || a === '--skip' || a === '--quit');
    case 'commit':
      return g.args.includes('--amend');
    case 'filter-branch':
    case 'filter-repo':
    case 'replace':
    case 'update-ref':
      return true;
    case 'checkout':
      return g.args.includes('--orphan');
    case 'branch':
      return g.args.some((a) => a === '-f' || a === '--force' || a === '-M' || a === '-C');
    case 'reflog':
      return positional(g.args)[0] === 'expire';
    default:
      return false;
  }
}

/** Branch names a refspec writes: `main`, `+main`, `HEAD:main`, `refs/heads/main`, `:main` (a delete). */
function refTarget(refspec: string): { branch: string; forced: boolean; deleted: boolean } {
  const forced = refspec.startsWith('+');
  const spec = forced ? refspec.slice(1) : refspec;
  const colon = spec.lastIndexOf(':');
  const dst = colon >= 0 ? spec.slice(colon + 1) : spec;
  return { branch: dst.replace(/^refs\/heads\//, '').toLowerCase(), forced, deleted: colon === 0 };
}

const isDefault = (branch: string): boolean => defaultBranches.has(branch) || [...defaultBranches].some((b) => branch.startsWith(`${b}/`) && b === 'release');

export function gitHistory(script: ShellScript, emit: Emit): void {
  let rewrite = false;
  let current: string | undefined;
  for (const cmd of script.commands) {
    const g = gitCall(cmd);
    if (!g) continue;
    if ((g.sub === 'checkout' || g.sub === 'switch') && !g.args.includes('--orphan')) {
      const branch = positional(g.args)[0];
      if (branch) current = branch.toLowerCase();
    }
    if (rewritesHistory(g)) rewrite = true;
    if (g.sub !== 'push') continue;
    const force = g.args.some((a) => a === '-f' || a === '--force' || a.startsWith('--force-with-lease') || a === '--mirror' || /^-[a-z]*f[a-z]*$/.test(a));
    const everything = g.args.includes('--all') || g.args.includes('--mirror');
    const deleting = g.args.includes('--delete') || g.args.includes('-d');
    const specs = positional(g.args).slice(1).map(refTarget);
    const targets = specs.length > 0 ? specs : current ? [{ branch: current, forced: false, deleted: false }] : [];
    if (targets.some((t) => isDefault(t.branch) && (t.deleted || deleting))) {
      emit(finding('git-delete-default-branch', 'git_default_branch_delete', 'git push deletes a default branch on the remote'));
      continue;
    }
    const forcedDefault = everything ? force : targets.some((t) => isDefault(t.branch) && (force || t.forced));
    if (forcedDefault && rewrite) emit(finding('git-history-force-push', 'git_history_force_push', 'rewrites history and force-pushes a default branch'));
    else if (forcedDefault) emit(finding('git-force-push-default', 'git_force_push_default', 'force-pushes a default branch'));
  }
}
