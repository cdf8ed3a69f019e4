import t from 'tap';
import { judgeToolCall } from '../../../src/inspect/effects/judge.js';

const effects = (call: string): string[] => judgeToolCall(call).filter((f) => f.score >= 0.9).map((f) => f.effect);

t.test('recursive permission or owner changes on system paths are blocked', async (t) => {
  const calls = [
    'chmod -R 777 /',
    'chmod -R 777 /etc',
    'sudo chmod -R a+rwx /usr',
    'chmod --recursive 0777 /var',
    'chown -R nobody:nogroup /',
    'sudo chown -R attacker /etc',
    'chgrp -R users /bin',
    'chmod -R 700 ~',
    'setfacl -R -m u:guest:rwx /etc',
    'chown -R www-data /home',
  ];
  for (const call of calls) t.ok(effects(call).includes('recursive_permission_system'), call);
});

t.test('world-writable modes on account and persistence files are blocked', async (t) => {
  const calls = ['chmod 777 /etc/shadow', 'chmod 666 /etc/passwd', 'chmod o+w /etc/sudoers', 'chmod a+w /etc/crontab', 'chmod 777 /etc/ld.so.preload', 'chmod 0666 /dev/sda', 'chmod 777 /etc', 'chmod 646 /etc/systemd/system/backup.service', 'chmod ugo+w /etc/profile', 'chmod 777 /usr/bin'];
  for (const call of calls) t.ok(effects(call).includes('world_writable_system'), call);
});

t.test('setuid bits and privileged capabilities are blocked', async (t) => {
  const calls = ['chmod u+s /bin/bash', 'chmod 4755 /tmp/rootsh', 'sudo chmod +s /usr/bin/find', 'chmod 6755 ./helper', 'chmod ug+s /usr/local/bin/tool', 'setcap cap_setuid+ep /usr/bin/python3', 'setcap cap_sys_admin=eip ./a.out', 'setcap =ep /tmp/x', 'cp /bin/sh /tmp/.s && chmod 4777 /tmp/.s', 'sudo sh -c "chmod u+s /usr/bin/vim"'];
  for (const call of calls) t.ok(effects(call).includes('setuid_or_capability'), call);
});

t.test('hardening and project-local permission changes are not flagged', async (t) => {
  const calls = ['chmod 600 ~/.ssh/id_ed25519', 'chmod 700 ~/.ssh', 'chmod -R 755 ./public', 'chmod +x ./scripts/build.sh', 'chown -R $USER:$USER ./dist', 'chmod g+s /srv/shared/team', 'chmod 644 ~/.ssh/id_ed25519.pub', 'setcap cap_net_bind_service=+ep /usr/bin/node', 'chmod -R u+w build/', 'chmod 1777 /tmp/scratch'];
  for (const call of calls) t.same(judgeToolCall(call), [], call);
});
