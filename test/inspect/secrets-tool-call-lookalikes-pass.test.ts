import t from 'tap';
import { inspect } from '../../src/inspect/pipeline.js';

// Tool calls carrying values that look like credentials and are not: a vendor's documented example key, a resource
// name inside an ARN, a key fingerprint under a secret-sounding name, a systemd unit that reads like an e-mail address.
const LOOKALIKES = [
  'az storage blob list --account-name devstoreaccount1 --account-key "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==" --container-name test',
  'aws secretsmanager describe-secret --secret-id arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/db-AbC123',
  'aws secretsmanager rotate-secret --secret-id arn:aws:secretsmanager:us-east-1:210987654321:secret:api/stripe-Xy9Qz1',
  'export TOKEN_FINGERPRINT=SHA256:DmXEd/G580RbXXBwUjPl1XgzxzBsUSz5rtN/Sf0iKxY',
  'export SIGNING_KEY_THUMBPRINT=3F2A9C4D5E6B7A8C9D0E1F2A3B4C5D6E7F8A9B0C',
  'vault token lookup -accessor hmac8Q2xT4kLm9Pw3VbN7rYz',
  'systemctl status user@1000.service --no-pager',
  'journalctl -u getty@tty1.service -n 50',
];

t.test('credential look-alikes in tool calls are neither blocked nor redacted', async (t) => {
  for (const command of LOOKALIKES) {
    const v = inspect({ content: command, kind: 'tool_call' });
    t.equal(v.action, 'allow', command.slice(0, 60));
    t.same(v.secrets, [], `${command.slice(0, 60)}: no finding`);
  }
});

t.test('real-looking credentials next to the same words still block', async (t) => {
  const secrets = [
    'az storage blob list --account-name prodstore --account-key "q8Zk3vT1rWm9Yx2Lb7Nc4Hd6Jf0Gs5Ap3Ke8Ui1Oy7Tr2We4Qa9Zx6Cv3Bn5Mm1Ll0Kk8Jj7Hh6Gg5Ff4Dd3Ss2Aa==" --container-name test',
    'curl -H "X-Secret: Zp4Qv8Lm2Wx7Rt5Yk9Bn3Hd6Jf1Gs0Ac" https://api.acme.example/v1/export',
    'export AWS_SECRET_ACCESS_KEY=Zp4Qv8Lm2Wx7Rt5Yk9Bn3Hd6Jf1Gs0AcE2uI7oP4',
  ];
  for (const command of secrets) t.equal(inspect({ content: command, kind: 'tool_call' }).action, 'block', command.slice(0, 60));
});
