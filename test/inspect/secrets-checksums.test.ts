import t from 'tap';
import { base62Decode, base62Encode, cpfValid, crc32, dniValid, ibanValid, luhnValid, tokenCrcValid } from '../../src/inspect/secrets/checksums.js';
import { randomness } from '../../src/inspect/secrets/entropy.js';

t.test('crc32 matches the IEEE 802.3 check value', async (t) => {
  t.equal(crc32('123456789'), 0xcbf43926);
  t.equal(crc32(''), 0);
});

t.test('base62 round-trips and GitHub-style checksums verify', async (t) => {
  t.equal(base62Decode(base62Encode(0xcbf43926, 6)), 0xcbf43926);
  const random = 'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1';
  const good = `ghp_${random}${base62Encode(crc32(random), 6)}`;
  t.ok(tokenCrcValid(good));
  t.notOk(tokenCrcValid(`ghp_${random}000000`));
});

t.test('Luhn accepts valid card numbers and rejects a changed digit', async (t) => {
  t.ok(luhnValid('4539148803436467'));
  t.notOk(luhnValid('4539148803436468'));
});

t.test('IBAN mod-97 with per-country lengths', async (t) => {
  const lengths = { DE: 22, GB: 22 };
  t.ok(ibanValid('DE89370400440532013000', lengths));
  t.ok(ibanValid('GB82WEST12345698765432', lengths));
  t.notOk(ibanValid('DE89370400440532013001', lengths), 'wrong check');
  t.notOk(ibanValid('DE8937040044053201300', lengths), 'wrong length');
});

t.test('national id check digits', async (t) => {
  t.ok(cpfValid('52998224725'));
  t.notOk(cpfValid('52998224726'));
  t.notOk(cpfValid('11111111111'), 'repeated digits are invalid by rule');
  t.ok(dniValid('12345679S'));
  t.notOk(dniValid('12345679K'));
  t.ok(dniValid('X1234567L'), 'NIE');
});

t.test('randomness separates machine tokens from keyboard mashes', async (t) => {
  t.ok(randomness('9fK2xQ7vLmB4tZ8wR1nC6yH3jD5sG0pA') > 0.85);
  t.ok(randomness('wef4fwef54te4t5teerdfgghrtgdg53') < 0.7);
});
