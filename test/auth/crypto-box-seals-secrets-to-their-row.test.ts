import t from 'tap';
import { open, seal } from '../../src/auth/crypto-box.js';

const KEY = Buffer.alloc(32, 1);

t.test('AES-256-GCM sealing under the master key', async (t) => {
  const sealed = seal(KEY, 'JBSWY3DPEHPK3PXPJBSWY3DP', 'acc_1');
  t.match(sealed, /^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
  t.notOk(sealed.includes('JBSWY3DP'), 'no plaintext in the sealed value');
  t.not(seal(KEY, 'JBSWY3DPEHPK3PXPJBSWY3DP', 'acc_1'), sealed, 'a fresh IV each time');
  t.equal(open(KEY, sealed, 'acc_1'), 'JBSWY3DPEHPK3PXPJBSWY3DP');
  t.throws(() => open(KEY, sealed, 'acc_2'), 'bound to its row: copied onto another account it does not open');
  t.throws(() => open(Buffer.alloc(32, 2), sealed, 'acc_1'), 'another master key does not open it');
  const parts = sealed.split('.');
  const flipped = Buffer.from(parts[3], 'base64url');
  flipped[0] ^= 1;
  t.throws(() => open(KEY, [...parts.slice(0, 3), flipped.toString('base64url')].join('.'), 'acc_1'), 'tampering is detected');
  t.throws(() => seal(Buffer.alloc(16), 'x', 'acc_1'), 'only a 32-byte key');
});
