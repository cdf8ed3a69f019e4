import { classifyPath } from '../../paths.js';
import { finding } from '../../settings.js';
import { inlineCode } from '../read.js';
import type { CommandRule } from './emit.js';
import { hasRecursiveFlag, operands, readTargets, writeTargets } from './targets.js';

/**
 * Collection, credential-access and impact tools named by ATT&CK: keyloggers and input devices (T1056.001),
 * sniffers (T1040), screen/clipboard/audio capture (T1113, T1115, T1123), password archives (T1560.001),
 * encryption of user data (T1486), brute-forcing (T1110), private-key hunting (T1552.004), kernel modules
 * (T1547.006), /proc memory writes (T1055.009), tunnels (T1572, T1090), trusted root certificates (T1553.004),
 * quarantine removal (T1553.001), hidden users (T1564.002), account lockout (T1531), login items (T1547.015).
 */

const SNIFFERS = new Set(['tcpdump', 'tshark', 'tcpflow', 'dumpcap', 'ettercap', 'bettercap', 'dsniff', 'ngrep']);
const SCREEN = new Set(['screencapture', 'scrot', 'xwd', 'gnome-screenshot', 'spectacle', 'maim', 'grim', 'flameshot']);
const CLIPBOARD = new Set(['pbpaste', 'xclip', 'xsel', 'wl-paste']);
const AUDIO = new Set(['arecord', 'parecord', 'rec']);
const CRACKERS = new Set(['hydra', 'medusa', 'ncrack', 'john', 'hashcat', 'crackmapexec', 'patator', 'unshadow', 'netexec', 'kerbrute']);
const TUNNELS = new Set(['ngrok', 'chisel', 'frpc', 'iodine', 'dnscat2', 'ligolo', 'tor', 'sshuttle', 'cloudflared', 'bore', 'gost']);
const KEY_NAMES = /^\*?(id_rsa|id_dsa|id_ecdsa|id_ed25519)\*?$|\.(pem|key|p12|pfx|kdbx|keychain|gpg|asc|ppk)\*?$/i;
const WRITABLE = /^(\/tmp|\/dev\/shm|\/var\/tmp|~|\$home|\.{1,2}\/|[^/])/i;

export const collection: CommandRule = (cmd, _script, emit) => {
  const ops = operands(cmd);
  const name = cmd.name;
  if (readTargets(cmd).some((p) => /^\/dev\/input\//.test(p)) || ops.some((p) => /^\/dev\/input\/(event|by-)/.test(p)) || name === 'logkeys' || (name === 'xinput' && ops[0] === 'test')) {
    emit(finding('keylogger', 'keylogging', 'reads keyboard input events'));
  }
  for (const [k, v] of cmd.assignments) if (k === 'PROMPT_COMMAND' && /logger|curl|wget|nc |tee|>>|history -a/.test(v)) emit(finding('prompt-command-log', 'keylogging', 'records every command typed'));
  if (name === 'trap' && cmd.args.some((a) => /BASH_COMMAND/.test(a))) emit(finding('trap-debug-log', 'keylogging', 'records every command typed'));
  if (SNIFFERS.has(name)) emit(finding('sniffer', 'network_sniff', `${name} captures network traffic`));
  if (SCREEN.has(name) || (name === 'import' && cmd.args.includes('-window'))) emit(finding('screen-capture', 'screen_capture', 'captures the screen'));
  if (CLIPBOARD.has(name) && (name === 'pbpaste' || name === 'wl-paste' || cmd.args.some((a) => a === '-o' || a === '--output' || a === '-out'))) emit(finding('clipboard', 'clipboard_read', 'reads the clipboard'));
  if (AUDIO.has(name) || (name === 'sox' && cmd.args.includes('-d')) || (name === 'ffmpeg' && cmd.args.some((a) => /^(avfoundation|alsa|pulse|dshow)$/.test(a)))) emit(finding('audio-capture', 'audio_capture', 'records audio'));
  if ((name === 'zip' && cmd.args.some((a) => a === '-P' || a === '-e' || a === '--encrypt' || a === '--password')) || ((name === '7z' || name === '7za') && cmd.args.some((a) => /^-p/.test(a)))) {
    emit(finding('archive-password', 'archive_with_password', 'packs files into a password-protected archive'));
  }
  const encrypts =
    (name === 'gpg' && cmd.args.some((a) => a === '-c' || a === '--symmetric' || a === '-e' || a === '--encrypt')) ||
    (name === 'openssl' && (ops[0] === 'enc' || ops[0] === 'rsautl' || ops[0] === 'pkeyutl') && !cmd.args.includes('-d') && !cmd.args.includes('-decrypt')) ||
    name === 'ccencrypt' ||
    name === 'ccrypt';
  if (encrypts) {
    const targets = [...ops, ...readTargets(cmd), ...cmd.args.filter((a, i) => cmd.args[i - 1] === '-in' || cmd.args[i - 1] === '-o' || cmd.args[i - 1] === '--output')];
    const wide = targets.some((p) => {
      const c = classifyPath(p);
      return c.has('root') || c.has('home') || c.has('system') || c.has('systemTree') || c.has('privilegeConfig') || c.has('credentials');
    });
    if (wide || (name === 'ccencrypt' && hasRecursiveFlag(cmd))) emit(finding('encrypt-data', 'encrypt_for_impact', 'encrypts data across a home or system tree'));
  }
  if (CRACKERS.has(name)) emit(finding('brute-force', 'brute_force', `${name} guesses or cracks passwords`));
  if (name === 'find') {
    const roots = ops.slice(0, Math.max(1, cmd.args.findIndex((a) => a.startsWith('-'))));
    const wide = roots.some((r) => {
      const c = classifyPath(r);
      return c.has('root') || c.has('home') || c.has('system');
    });
    const keyName = cmd.args.some((a, i) => (a === '-name' || a === '-iname') && KEY_NAMES.test(cmd.args[i + 1] ?? ''));
    if (wide && keyName) emit(finding('key-search', 'key_search', 'searches the file system for private keys'));
  }
  if (name === 'insmod' || (name === 'modprobe' && ops.some((p) => p.includes('/')))) {
    const module = ops.find((p) => p.endsWith('.ko') || p.includes('/')) ?? ops[0] ?? '';
    emit(WRITABLE.test(module) ? finding('kernel-module-untrusted', 'kernel_module', 'loads a kernel module from a writable location') : finding('kernel-module', 'kernel_module_load', 'loads a kernel module'));
  }
  if (writeTargets(cmd).some((w) => /^\/proc\/(\d+|self|\*|\$[a-z_]+)\/mem$/i.test(w.path))) emit(finding('proc-mem-write', 'process_injection', 'writes another process memory'));
  if (TUNNELS.has(name) || (name === 'ssh' && cmd.args.some((a) => /^-[a-z]*[RD]$/.test(a))) || (name === 'socat' && cmd.args.some((a) => /^tcp(4|6)?-listen:/i.test(a)) && cmd.args.some((a) => /^tcp(4|6)?:/i.test(a)))) {
    emit(finding('tunnel', 'tunnel', `${name} opens a tunnel or proxy`));
  }
  if (name === 'security' && ops[0] === 'add-trusted-cert') emit(finding('trust-root-cert', 'cert_trust', 'installs a trusted root certificate'));
  if (name === 'xattr' && cmd.args.some((a) => /com\.apple\.quarantine/.test(a)) && cmd.args.some((a) => /^-[a-z]*d/.test(a))) emit(finding('quarantine-removal', 'quarantine_bypass', 'removes the quarantine attribute'));
  if (name === 'dscl' && cmd.args.some((a) => /^IsHidden$/i.test(a))) emit(finding('hidden-user', 'hidden_user', 'hides a user account'));
  if (name === 'defaults' && cmd.args.some((a) => /com\.apple\.loginwindow/i.test(a)) && cmd.args.some((a) => /HiddenUsersList|Hide500Users|TALAppsToRelaunchAtLogin|AutoLaunchedApplicationDictionary/i.test(a))) {
    emit(finding('loginwindow', 'hidden_user', 'changes login-window users or relaunched apps'));
  }
  if ((name === 'passwd' && cmd.args.some((a) => a === '-l' || a === '--lock')) || (name === 'usermod' && cmd.args.includes('-L')) || (name === 'chage' && cmd.args.includes('-E') && ops.includes('0')) || name === 'userdel' || name === 'deluser') {
    emit(finding('account-removal', 'account_removal', `${name} locks or removes an account`));
  }
  if ((name === 'cp' || name === 'ln' || name === 'install') && ops.length >= 2) {
    const source = ops[0];
    const dest = ops[ops.length - 1];
    const shellBinary = /^\/(usr\/)?(local\/)?bin\/(ba|da|z|k|c|tc|fi)?sh$|^\/(usr\/)?bin\/(python[0-9.]*|perl|ruby|php|node|nc|ncat|socat)$/.test(source);
    const renamed = dest.split('/').pop() !== source.split('/').pop() && !dest.endsWith('/');
    if (shellBinary && renamed && !classifyPath(dest).has('systemTree')) emit(finding('masquerade-shell', 'masquerade', 'copies a shell or interpreter under another name'));
  }
  const code = inlineCode(cmd);
  if (name === 'osascript' && code && /login item/i.test(code)) emit(finding('login-item', 'persistence_write', 'adds a login item'));
};
