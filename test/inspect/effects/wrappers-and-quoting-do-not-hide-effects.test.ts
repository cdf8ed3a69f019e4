import t from 'tap';
import { judgeToolCall } from '../../../src/inspect/effects/judge.js';

const blocks = (call: string, effect: string): boolean => judgeToolCall(call).some((f) => f.effect === effect && f.score >= 0.9);

t.test('wrappers are removed before judging', async (t) => {
  const cases: [string, string][] = [
    ['sudo rm -rf /', 'destroy_root_or_system'],
    ['sudo -u root -- rm -rf /etc', 'destroy_root_or_system'],
    ['env -i PATH=/bin rm -rf ~', 'destroy_home'],
    ['nohup nice -n 19 timeout 60 shred -u /etc/shadow &', 'secure_delete_sensitive'],
    ["bash -c 'chmod -R 777 /'", 'recursive_permission_system'],
    ['sh -c "echo pwn >> /etc/sudoers"', 'privilege_config_write'],
    ["sudo bash -lc 'cat /etc/shadow'", 'credential_read'],
    ['eval "rm -rf /boot"', 'destroy_root_or_system'],
    ["su -c 'useradd -o -u 0 r00t' root", 'privileged_account'],
    ['find / -maxdepth 1 -exec rm -rf {} +', 'destroy_root_or_system'],
    ['find /home -type f | xargs -0 shred -u', 'secure_delete_sensitive'],
    ["ssh admin@db1.example.com 'mkfs.ext4 /dev/sdb'", 'disk_wipe'],
    ["python3 -c 'import os; os.system(\"rm -rf /etc\")'", 'destroy_root_or_system'],
    ["busybox rm -rf /", 'destroy_root_or_system'],
    ["bash -c \"bash -c 'rm -rf /'\"", 'destroy_root_or_system'],
    ['cat <<EOF | bash\nrm -rf /var\nEOF', 'destroy_root_or_system'],
    ['bash <<< "history -c"', 'history_tampering'],
    ['strace -f -o /dev/null rm -rf /usr', 'destroy_root_or_system'],
  ];
  for (const [call, effect] of cases) t.ok(blocks(call, effect), call);
});

t.test('quoting, escaping and spacing that the shell removes do not hide the command', async (t) => {
  const cases: [string, string][] = [
    ["r''m -rf /", 'destroy_root_or_system'],
    ['r"m" -r"f" /', 'destroy_root_or_system'],
    ['\\rm -rf /', 'destroy_root_or_system'],
    ['/bin/r\\m -rf /etc', 'destroy_root_or_system'],
    ["$'\\x72\\x6d' -rf /", 'destroy_root_or_system'],
    ['rm    -rf\t/', 'destroy_root_or_system'],
    ['ch""mod -R 777 /', 'recursive_permission_system'],
    ['rm -rf "/"', 'destroy_root_or_system'],
    ["rm -rf '/etc/'", 'destroy_root_or_system'],
    ['rm -rf /etc/../', 'destroy_root_or_system'],
    ['rm -rf //', 'destroy_root_or_system'],
    ['RM -RF /', 'destroy_root_or_system'],
    ["c\\at ~/.aws/cred\\entials", 'credential_read'],
    ['rm -rf ./../../../../../../', 'destroy_root_or_system'],
  ];
  for (const [call, effect] of cases) t.ok(blocks(call, effect), call);
});
