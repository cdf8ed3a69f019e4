import t from 'tap';
import { judgeToolCall } from '../../../src/inspect/effects/judge.js';

const scoreOf = (call: string, effect: string): number => Math.max(0, ...judgeToolCall(call).filter((f) => f.effect === effect).map((f) => f.score));

t.test('keyloggers and command recorders are blocked', async (t) => {
  for (const call of [
    'cat /dev/input/event0 > /tmp/.k',
    'sudo xxd /dev/input/by-path/platform-i8042-serio-0-event-kbd',
    'logkeys --start --output /tmp/.log',
    'xinput test 12 > /tmp/.keys &',
    "PROMPT_COMMAND='history -a >(tee -a ~/.x | logger -t cmd)'",
    "export PROMPT_COMMAND='RETRN_VAL=$?; logger -p local6.debug \"$(history 1)\"'",
    "trap 'echo \"$BASH_COMMAND\" >> /tmp/.cmds' DEBUG",
  ]) t.ok(scoreOf(call, 'keylogging') >= 0.9, call);
});

t.test('encrypting data in place of the owner is blocked', async (t) => {
  for (const call of [
    'gpg --batch --yes --passphrase x -c /etc/passwd',
    'find /home -type f -exec openssl enc -aes-256-cbc -k x -in {} -out {}.enc \\;',
    'openssl rsautl -encrypt -pubin -inkey pub.pem -in /etc/shadow -out /tmp/s.enc',
    'ccencrypt -r -K secret ~/',
    'gpg -c --batch --passphrase x ~',
  ]) t.ok(scoreOf(call, 'encrypt_for_impact') >= 0.9, call);
  t.equal(scoreOf('gpg -c notes.txt', 'encrypt_for_impact'), 0, 'encrypting one project file is not an attack');
});

t.test('firewall, audit and logging configuration rewrites are blocked', async (t) => {
  for (const call of [
    'echo "" > /etc/rsyslog.conf',
    'rm -f /etc/audit/rules.d/audit.rules',
    "sed -i 's/^active.*/active = no/' /etc/audit/plugins.d/syslog.conf",
    'cp /dev/null /etc/ufw/user.rules',
    'ufw logging off',
    'kill -9 $(pidof auditd)',
    "export HISTIGNORE='*'",
  ]) t.ok(judgeToolCall(call).some((f) => f.leaf === 'defense_evasion' && f.score >= 0.9), call);
});

t.test('privileged tooling is blocked or flagged by what it does', async (t) => {
  t.ok(scoreOf('hydra -l root -P rockyou.txt ssh://203.0.113.4', 'brute_force') >= 0.9, 'hydra');
  t.ok(scoreOf('john --wordlist=w.txt /tmp/hashes', 'brute_force') >= 0.9, 'john');
  t.ok(scoreOf('sudo insmod /tmp/rk.ko', 'kernel_module') >= 0.9, 'module from /tmp');
  t.ok(scoreOf('sudo security add-trusted-cert -d -r trustRoot -k /Library/Keychains/System.keychain ca.crt', 'cert_trust') >= 0.9, 'trusted root');
  t.ok(scoreOf('dd if=/tmp/sc.bin of=/proc/1234/mem bs=1 seek=4096 conv=notrunc', 'process_injection') >= 0.9, 'proc mem write');
  t.ok(scoreOf('dscl . -create /Users/svc IsHidden 1', 'hidden_user') >= 0.9, 'hidden user');
});

t.test('ambiguous collection and tunnelling tools are MEDIUM, not blocked', async (t) => {
  for (const [call, effect] of [
    ['sudo tcpdump -i any -w /tmp/cap.pcap', 'network_sniff'],
    ['screencapture -x /tmp/s.png', 'screen_capture'],
    ['import -window root /tmp/s.png', 'screen_capture'],
    ['xclip -o -selection clipboard', 'clipboard_read'],
    ['arecord -d 30 /tmp/a.wav', 'audio_capture'],
    ['zip -r -P hunter2 /tmp/out.zip ./docs', 'archive_with_password'],
    ['ssh -R 8080:localhost:22 user@relay.example.com', 'tunnel'],
    ['ngrok tcp 22', 'tunnel'],
    ['cp /bin/bash /tmp/.sshd', 'masquerade'],
    ['cp my-root-ca.crt /usr/local/share/ca-certificates/ && update-ca-certificates', 'ca_store_write'],
    ["find / -name 'id_rsa*' 2>/dev/null", 'key_search'],
    ['export HISTCONTROL=ignoreboth', 'history_hiding'],
    ['sudo modprobe ./driver.ko', 'kernel_module'],
    ['sudo passwd -l alice', 'account_removal'],
    ['touch -t 202001010000 /tmp/x', 'timestomp'],
  ] as const) {
    const s = scoreOf(call, effect);
    if (effect === 'kernel_module') t.ok(s >= 0.9, `${call} (relative module path)`);
    else t.ok(s >= 0.45 && s < 0.75, `${call}: ${s}`);
  }
});
