import { classifyPath, type PathClass } from '../../paths.js';
import { commands, finding } from '../../settings.js';
import type { ShellCommand } from '../../types.js';
import { describe, type CommandRule } from './emit.js';
import { deleteTargets, hasRecursiveFlag, operands, readTargets, writeTargets } from './targets.js';

/**
 * File-system effects: destroying the root, home or system directories (ATT&CK T1485), wiping disks (T1561),
 * secure deletion, recursive or weakening permission changes on system paths (T1222.002), setuid/capabilities
 * (T1548.001), writes to persistence and privilege locations (T1098.004, T1053.003, T1543, T1546.004, T1548.003,
 * T1574.006), log and history destruction (T1070.002/.003) and reads of credential stores (T1552, T1003.008).
 */

const SENSITIVE_FOR_WIPE: PathClass[] = ['root', 'home', 'system', 'systemTree', 'device', 'logs', 'credentials', 'privilegeConfig', 'persistence'];
const HISTORY = /history|\.lesshst|\.viminfo/;

export const destruction: CommandRule = (cmd, _script, emit) => {
  const secure = commands.secureDeleters.has(cmd.name);
  for (const target of deleteTargets(cmd)) {
    const classes = classifyPath(target);
    if (secure) {
      const sensitive = SENSITIVE_FOR_WIPE.some((c) => classes.has(c));
      if (classes.has('device')) emit(finding('shred-device', 'disk_wipe', `${cmd.name} on a block device`));
      else emit(finding(`secure-delete${sensitive ? '-sensitive' : ''}`, sensitive ? 'secure_delete_sensitive' : 'secure_delete', `${cmd.name} on ${describe(classes)}`));
    } else if (classes.has('root') || classes.has('system')) emit(finding('delete-system', 'destroy_root_or_system', `${cmd.name || 'truncate'} on ${classes.has('root') ? 'the root directory' : 'a system directory'}`));
    else if (classes.has('home')) emit(finding('delete-home', 'destroy_home', `${cmd.name || 'truncate'} on a home directory`));
    else if (classes.has('privilegeConfig')) emit(finding('delete-account-db', 'destroy_root_or_system', `${cmd.name || 'truncate'} on an account or sudo file`));
    if (classes.has('securityConfig')) emit(finding('delete-security-config', 'security_config_write', `${cmd.name || 'truncate'} removes a firewall, audit or logging configuration`));
    if (classes.has('logs')) {
      const history = HISTORY.test(target);
      emit(finding(history ? 'history-delete' : 'log-delete', history ? 'history_tampering' : 'log_tampering', `${cmd.name || 'truncate'} on ${history ? 'shell history' : 'system logs'}`));
    }
  }
};

export const diskWipe: CommandRule = (cmd, _script, emit) => {
  const devices = (paths: string[]): boolean => paths.some((p) => classifyPath(p).has('device'));
  if (commands.diskWriters.has(cmd.name) || cmd.name.startsWith('mkfs.')) {
    if (devices(operands(cmd)) || (cmd.name === 'diskutil' && /erase|zero|secure|partition|reformat/i.test(cmd.args[0] ?? ''))) {
      emit(finding('disk-format', 'disk_wipe', `${cmd.name} on a disk`));
    }
  }
  if (devices(writeTargets(cmd).map((w) => w.path))) emit(finding('disk-overwrite', 'disk_wipe', `${cmd.name || 'redirect'} writes a block device`));
};

const WEAK_OCTAL = /^0?[0-7]?[0-7]{2}[2367]$/;
const WEAK_SYMBOLIC = /(^|,)[ugo]*[ao][ugo]*\+[rwxXst]*w|(^|,)\+[rwxXst]*w/;
const READABLE_OCTAL = /^0?[0-7]?[0-7]{2}[4-7]$/;
const SETUID_OCTAL = /^0?[4567][0-7]{3}$/;
const SETUID_SYMBOLIC = /(^|,)(u[go]*|a|)?\+[rwxX]*s/;
const DANGEROUS_CAPS = /cap_(setuid|setgid|sys_admin|sys_ptrace|sys_module|dac_override|dac_read_search|chown|fowner)|^=ep$|\ball\b/i;

export const permissions: CommandRule = (cmd, _script, emit) => {
  if (cmd.name === 'setcap') {
    if (cmd.args.some((a) => DANGEROUS_CAPS.test(a))) emit(finding('setcap', 'setuid_or_capability', 'grants a privileged capability'));
    return;
  }
  if (!commands.permissionChangers.has(cmd.name)) return;
  const ops = operands(cmd);
  const mode = cmd.name === 'chmod' ? (ops[0] ?? '') : '';
  const targets = cmd.name === 'chattr' ? ops.filter((a) => !/^[+=]/.test(a)) : ops.slice(1);
  const recursive = hasRecursiveFlag(cmd) && cmd.name !== 'chattr';
  for (const target of targets) {
    const classes = classifyPath(target);
    const system = classes.has('root') || classes.has('system') || classes.has('home');
    if (recursive && system) emit(finding(`${cmd.name}-recursive-system`, 'recursive_permission_system', `recursive ${cmd.name} on ${describe(classes)}`));
    if (cmd.name !== 'chmod') continue;
    const sensitiveFile = classes.has('privilegeConfig') || classes.has('persistence') || classes.has('preload') || classes.has('credentials') || classes.has('device');
    if ((WEAK_OCTAL.test(mode) || WEAK_SYMBOLIC.test(mode)) && (system || sensitiveFile)) {
      emit(finding('chmod-world-writable', 'world_writable_system', `world-writable mode on ${describe(classes)}`));
    } else if (READABLE_OCTAL.test(mode) && classes.has('credentials') && !classes.has('home')) {
      emit(finding('chmod-credentials-readable', 'world_writable_system', 'world-readable mode on a credential store'));
    }
    if (SETUID_OCTAL.test(mode) || SETUID_SYMBOLIC.test(mode)) emit(finding('chmod-setuid', 'setuid_or_capability', 'sets the setuid bit'));
  }
};

export const persistenceWrites: CommandRule = (cmd, _script, emit) => {
  for (const { path, replaces } of writeTargets(cmd)) {
    const classes = classifyPath(path);
    if (classes.has('persistence')) emit(finding('write-persistence', 'persistence_write', `${cmd.name || 'redirect'} writes a persistence location`));
    if (classes.has('privilegeConfig')) emit(finding('write-privilege-config', 'privilege_config_write', `${cmd.name || 'redirect'} writes an account, sudo or security file`));
    if (classes.has('preload')) emit(finding('write-preload', 'preload_hijack', `${cmd.name || 'redirect'} writes the dynamic linker preload list`));
    if (classes.has('securityConfig')) emit(finding('write-security-config', 'security_config_write', `${cmd.name || 'redirect'} rewrites a firewall, audit or logging configuration`));
    if (classes.has('caStore')) emit(finding('write-ca-store', 'ca_store_write', `${cmd.name || 'redirect'} adds to the trusted certificate store`));
    if (classes.has('logs') && replaces && cmd.name !== 'curl' && cmd.name !== 'wget') {
      const history = HISTORY.test(path);
      emit(finding(history ? 'history-overwrite' : 'log-overwrite', history ? 'history_tampering' : 'log_tampering', `${cmd.name || 'redirect'} overwrites ${history ? 'shell history' : 'system logs'}`));
    }
  }
  if (cmd.name === 'crontab' && !cmd.args.some((a) => a === '-l' || a === '-e' || a === '-r')) emit(finding('crontab-install', 'persistence_write', 'installs a crontab'));
  if (cmd.name === 'defaults' && cmd.args.some((a) => /^(loginhook|logouthook)$/i.test(a))) emit(finding('login-hook', 'persistence_write', 'sets a login hook'));
  if ((cmd.name === 'at' || cmd.name === 'batch') && cmd.pipeIn) emit(finding('at-job', 'persistence_schedule', 'schedules a job'));
  if (cmd.name === 'launchctl' && /^(load|bootstrap|submit|enable)$/.test(cmd.args[0] ?? '')) emit(finding('launchctl-load', 'persistence_schedule', 'loads a launchd job'));
};

const SECRET_READERS_EXCLUDED = new Set(['chmod', 'chown', 'ssh', 'ssh-add', 'ssh-keygen', 'ls', 'stat', 'test', 'touch']);

export const credentialReads: CommandRule = (cmd, _script, emit) => {
  if (cmd.name === 'security' && /^(dump-keychain|find-generic-password|find-internet-password|export|find-certificate)$/.test(cmd.args[0] ?? '')) {
    if (cmd.args[0] === 'dump-keychain' || cmd.args[0] === 'export' || cmd.args.some((a) => a === '-w' || a === '-g' || a === '-d')) emit(finding('keychain-dump', 'keychain_dump', 'reads secrets from the keychain'));
  }
  if (SECRET_READERS_EXCLUDED.has(cmd.name)) return;
  for (const target of readTargets(cmd)) {
    const classes = classifyPath(target);
    if (classes.has('credentials')) emit(finding('read-credentials', 'credential_read', `${cmd.name || 'redirect'} reads a credential store`));
    else if (classes.has('secretFiles')) emit(finding('read-secret-file', 'secret_file_read', `${cmd.name || 'redirect'} reads a secrets file`));
    else if (classes.has('logs') && HISTORY.test(target)) emit(finding('read-history', 'secret_file_read', `${cmd.name || 'redirect'} reads shell history`));
  }
  if (['grep', 'egrep', 'rg', 'findstr'].includes(cmd.name) && hasRecursiveFlag(cmd)) {
    const ops = operands(cmd);
    const pattern = ops[0] ?? '';
    const wide = ops.slice(1).some((p) => {
      const c = classifyPath(p);
      return c.has('root') || c.has('home') || c.has('system');
    });
    if (wide && /pass(word|wd)?|secret|token|api[_-]?key|credential|private key|aws_/i.test(pattern)) emit(finding('grep-credentials', 'credential_read', 'searches the system for credentials'));
  }
};

export function isSensitiveRead(cmd: ShellCommand): boolean {
  return readTargets(cmd).some((t) => {
    const c = classifyPath(t);
    return c.has('credentials') || c.has('secretFiles') || (c.has('logs') && HISTORY.test(t));
  });
}
