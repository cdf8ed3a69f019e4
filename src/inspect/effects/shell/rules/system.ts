import { commands, finding } from '../../settings.js';
import type { ShellCommand, ShellScript } from '../../types.js';
import { inlineCode } from '../read.js';
import type { CommandRule, Emit } from './emit.js';
import { operands, writeTargets } from './targets.js';

/**
 * Host-level effects: disabling security tools and firewalls (ATT&CK T1562.001/.004), history suppression
 * (T1070.003), timestomping (T1070.006), privileged accounts (T1136, T1098), preload hijacking through the
 * environment (T1574.006), fork bombs and mass kills (T1499, T1529), crypto-mining (T1496), escapes to the host
 * (T1611).
 */

const KERNEL_PROTECTIONS = /randomize_va_space|ptrace_scope|kptr_restrict|dmesg_restrict|perf_event_paranoid|protected_(symlinks|hardlinks)/;
const SERVICE_VERBS = /^(stop|disable|mask|kill|unload|bootout|remove|off)$/;
const stripUnit = (s: string): string => s.toLowerCase().replace(/\.(service|socket|plist)$/, '').replace(/^.*\//, '');
const isSecurityService = (s: string): boolean => {
  const unit = stripUnit(s);
  return commands.securityServices.has(unit) || [...commands.securityServices].some((x) => x.includes('.') && unit.startsWith(x));
};

export const securityTools: CommandRule = (cmd, script, emit) => {
  const ops = operands(cmd);
  const disable = (what: string): void => emit(finding('security-disable', 'security_tool_disable', what));
  switch (cmd.name) {
    case 'systemctl':
    case 'launchctl':
    case 'invoke-rc.d':
    case 'rc-service':
    case 'update-rc.d':
    case 'chkconfig':
    case 'service': {
      const verb = ops.find((a) => SERVICE_VERBS.test(a));
      if (verb && ops.some((a) => a !== verb && isSecurityService(a))) disable(`${cmd.name} ${verb} of a security service`);
      break;
    }
    case 'pkill':
    case 'killall':
      if (ops.some(isSecurityService)) disable(`${cmd.name} of a security service`);
      break;
    case 'ufw':
      if (ops[0] === 'disable' || ops[0] === 'reset' || (ops[0] === 'logging' && ops[1] === 'off') || (ops[0] === 'default' && ops[1] === 'allow' && ops[2] !== 'outgoing')) disable('disables or opens the firewall');
      break;
    case 'kill':
      if (cmd.args.some((a) => a.includes('$(') || a.includes('`')) && script.commands.some((c) => c.substituted && /^(pgrep|pidof)$/.test(c.name) && operands(c).some(isSecurityService))) disable('kills a security service');
      break;
    case 'setenforce':
      if (ops[0] === '0' || ops[0]?.toLowerCase() === 'permissive') disable('turns SELinux enforcement off');
      break;
    case 'iptables':
    case 'ip6tables':
      if (cmd.args.some((a) => a === '-F' || a === '--flush' || a === '-X' || a === '--delete-chain') || (cmd.args.includes('-P') && cmd.args.includes('ACCEPT') && cmd.args.includes('INPUT'))) disable('flushes or opens the firewall');
      break;
    case 'nft':
      if (ops[0] === 'flush' && ops[1] === 'ruleset') disable('flushes the firewall');
      break;
    case 'pfctl':
      if (cmd.args.includes('-d')) disable('disables the packet filter');
      break;
    case 'spctl':
      if (cmd.args.some((a) => a === '--master-disable' || a === '--global-disable')) disable('disables Gatekeeper');
      break;
    case 'csrutil':
      if (ops[0] === 'disable') disable('disables System Integrity Protection');
      break;
    case 'socketfilterfw':
      if (cmd.args.includes('--setglobalstate') && ops.includes('off')) disable('disables the application firewall');
      break;
    case 'auditctl':
      if (cmd.args.includes('-D') || (cmd.args.includes('-e') && ops.includes('0'))) disable('clears or disables audit rules');
      break;
    case 'aa-teardown':
    case 'aa-disable':
      disable('unloads AppArmor');
      break;
    case 'mdatp':
      if (ops.includes('disabled') || ops.includes('false')) disable('disables Defender protection');
      break;
    case 'defaults':
      if (ops.some((a) => /lsquarantine/i.test(a)) && ops.some((a) => /^(no|false|0)$/i.test(a))) disable('turns off the quarantine flag');
      if (ops.some((a) => /com\.apple\.alf/i.test(a)) && ops.some((a) => /^globalstate$/i.test(a)) && ops.includes('0')) disable('turns off the application firewall');
      break;
    case 'sysctl':
      if (ops.some((a) => KERNEL_PROTECTIONS.test(a) && /=\s{0,2}0$/.test(a))) disable('turns off a kernel protection');
      break;
  }
  // `/etc/init.d/auditd stop`, `auditd stop`: an init script named after a security service.
  if (isSecurityService(cmd.name) && SERVICE_VERBS.test(ops[0] ?? '')) disable(`stops ${cmd.name.slice(0, 24)}`);
  for (const w of writeTargets(cmd)) {
    const value = [...cmd.args, ...(cmd.pipeIn?.args ?? [])];
    if (/^\/proc\/sys\/kernel\//.test(w.path) && KERNEL_PROTECTIONS.test(w.path) && value.includes('0')) disable('turns off a kernel protection');
  }
};

const HISTORY_VARS = new Set(['HISTFILE', 'HISTSIZE', 'HISTFILESIZE', 'SAVEHIST']);

export const historyAndTime: CommandRule = (cmd, _script, emit) => {
  if (cmd.name === 'history' && cmd.args.some((a) => a === '-c' || a === '-cw' || a === '-wc')) emit(finding('history-clear', 'history_tampering', 'clears shell history'));
  if (cmd.name === 'unset' && cmd.args.some((a) => a === 'HISTFILE')) emit(finding('history-unset', 'history_tampering', 'stops history recording'));
  if (cmd.name === 'set' && cmd.args.includes('+o') && cmd.args.includes('history')) emit(finding('history-off', 'history_tampering', 'stops history recording'));
  for (const [name, value] of cmd.assignments) {
    if (HISTORY_VARS.has(name) && (value === '' || value === '0' || value === '/dev/null')) emit(finding('history-var', 'history_tampering', `sets ${name} to stop history`));
    if (name === 'HISTIGNORE' && /^\*$|^\*:|:\*$/.test(value)) emit(finding('history-ignore-all', 'history_tampering', 'HISTIGNORE drops every command'));
    if (name === 'HISTCONTROL' && /ignorespace|ignoreboth/.test(value)) emit(finding('history-control', 'history_hiding', 'lets commands with a leading space skip history'));
    if ((name === 'LD_PRELOAD' || name === 'DYLD_INSERT_LIBRARIES') && /^(\/tmp|\/dev\/shm|\/var\/tmp|~|\.|\$HOME|[^/])/.test(value)) {
      emit(finding('env-preload', 'preload_hijack', `${name} points at a writable location`));
    }
  }
  if (cmd.name === 'touch' && cmd.args.some((a) => /^-[a-z]*[tdr]$/.test(a) || a.startsWith('--date') || a.startsWith('--reference'))) emit(finding('timestomp', 'timestomp', 'sets a file time explicitly'));
};

export const accounts: CommandRule = (cmd, _script, emit) => {
  const a = cmd.args;
  const joined = a.join(' ');
  if (cmd.name === 'useradd' || cmd.name === 'adduser' || cmd.name === 'usermod') {
    const uid0 = /(^|\s)(-u|--uid)\s+0(\s|$)/.test(joined) || a.includes('-o');
    const adminGroup = /(^|\s)(-g|-G|--groups?|-aG|-a\s+-G)\s+\S*\b(sudo|wheel|admin|root)\b/.test(joined) || (cmd.name === 'adduser' && a.length === 2 && /^(sudo|wheel|admin|root)$/.test(a[1]));
    if (uid0 || adminGroup) emit(finding('account-privileged', 'privileged_account', `${cmd.name} grants root or admin rights`));
    else if (cmd.name !== 'usermod') emit(finding('account-create', 'account_create', 'creates a user account'));
  }
  if (cmd.name === 'dscl' && /(uniqueid|primarygroupid)\s+0\b|\/groups\/admin\b/i.test(joined)) emit(finding('account-privileged', 'privileged_account', 'dscl grants root or admin rights'));
  if (cmd.name === 'chpasswd' && cmd.pipeIn && /\broot:/.test(cmd.pipeIn.args.join(' '))) emit(finding('root-password', 'privileged_account', 'sets the root password'));
  if (cmd.name === 'passwd' && (a.includes('-d') || a.includes('--delete'))) emit(finding('password-delete', 'privileged_account', 'removes an account password'));
};

export const availability: CommandRule = (cmd, _script, emit) => {
  const ops = operands(cmd);
  if (cmd.name === 'kill' && (cmd.args.includes('-1') && cmd.args.length >= 2 || ops.includes('1') || (cmd.args.includes('--') && cmd.args[cmd.args.indexOf('--') + 1] === '-1'))) {
    emit(finding('kill-all', 'mass_kill', 'kills every process or init'));
  }
  if (cmd.name === 'killall5' || (cmd.name === 'pkill' && ops.some((o) => o === '.' || o === '.*'))) emit(finding('kill-all', 'mass_kill', 'kills every process'));
  for (const w of writeTargets(cmd)) if (/^\/proc\/sysrq-trigger$/.test(w.path)) emit(finding('sysrq', 'mass_kill', 'triggers a kernel SysRq action'));
  if (['shutdown', 'reboot', 'halt', 'poweroff'].includes(cmd.name) || (['init', 'telinit'].includes(cmd.name) && /^[06]$/.test(ops[0] ?? '')) || (cmd.name === 'systemctl' && /^(poweroff|reboot|halt|kexec)$/.test(ops[0] ?? ''))) {
    emit(finding('shutdown', 'shutdown', `${cmd.name} stops the host`));
  }
  if (commands.miners.has(cmd.name) || cmd.args.some((a) => /^stratum\+(tcp|ssl|tls):\/\//i.test(a) || a.startsWith('--donate-level'))) emit(finding('miner', 'crypto_mining', 'runs a crypto-currency miner'));
  if ((cmd.name === 'docker' || cmd.name === 'podman') && /^(run|create)$/.test(ops[0] ?? '')) {
    const mountsRoot = cmd.args.some((x, i) => (x === '-v' || x === '--volume') && /^\/:/.test(cmd.args[i + 1] ?? '')) || cmd.args.some((x) => /^(-v|--volume=)\/:/.test(x));
    const hostNs = cmd.args.includes('--privileged') && cmd.args.some((x) => /^--pid=host$/.test(x) || x === '--pid');
    if (mountsRoot || hostNs) emit(finding('container-host-root', 'container_escape', 'container with the host root or namespaces'));
  }
  if (cmd.name === 'nsenter' && cmd.args.some((x, i) => (x === '-t' || x === '--target') && cmd.args[i + 1] === '1')) emit(finding('nsenter-init', 'container_escape', 'enters the namespaces of PID 1'));
  const code = inlineCode(cmd);
  if (code && /fork\s{0,2}(\(\))?\s{0,2}while\s{0,2}fork|while\s{0,4}(true|1|\(1\))\s{0,4}[:{]?[^\n]{0,60}\bfork\s{0,2}\(/i.test(code.slice(0, 4096))) emit(finding('fork-bomb', 'fork_bomb', 'forks without bound'));
};

/** `f(){ f|f& }; f` and variants: a function that calls itself in a pipe or in the background. */
export function forkBomb(script: ShellScript, emit: Emit): void {
  for (const fn of script.functions) {
    const selfCalls = fn.calls.filter((c) => c === fn.name).length;
    const invoked = script.commands.filter((c) => c.name === fn.name).length > selfCalls;
    if (selfCalls >= 1 && (fn.piped || fn.background) && invoked) {
      emit(finding('fork-bomb', 'fork_bomb', 'a function that spawns itself recursively'));
      return;
    }
  }
}

export function isShellLike(cmd: ShellCommand): boolean {
  return commands.shells.has(cmd.name);
}
