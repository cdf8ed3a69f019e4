import t from 'tap';
import { didFromEd25519, ed25519FromDid } from '../../src/agents/did-key.js';
import { spendRefusal } from '../../src/agents/limits.js';
import { toDecimal, toMinor } from '../../src/agents/money.js';
import { firstBreak, recordHash, GENESIS_HASH } from '../../src/agents/activity-chain.js';

t.test('did:key: the W3C example decodes to its Ed25519 key and back; other keys are refused', async (t) => {
  const example = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
  const raw = ed25519FromDid(example);
  t.ok(raw);
  t.equal(Buffer.from(raw!).toString('hex').slice(0, 8), '2e6fcce3');
  t.equal(didFromEd25519(raw!), example, 'round trip');
  t.equal(ed25519FromDid('did:key:zDnaerDaTF5BXEavCrfRZEk316dpbLsfPDZ3WJ5hRTPFU2169'), undefined, 'P-256 multicodec (0x1200) refused');
  t.equal(ed25519FromDid(example.slice(0, -1)), undefined, 'a truncated key is not 32 bytes');
  t.equal(ed25519FromDid('did:key:z0OIl'), undefined, 'not base58btc');
});

t.test('money: decimal strings to minor units and back, never through a float', async (t) => {
  t.equal(toMinor('0.1', 'USD'), 10);
  t.equal(toMinor('0.29', 'USD'), 29, '0.29 × 100 in floats is 28.999…');
  t.equal(toMinor('999999999999.99', 'USD'), 99_999_999_999_999);
  t.equal(toMinor('1.005', 'USD'), undefined, 'more digits than the currency has');
  t.equal(toMinor('01', 'USD'), undefined, 'leading zero');
  t.equal(toMinor('1e3', 'USD'), undefined);
  t.equal(toDecimal(5, 'USD'), '0.05');
  t.equal(toDecimal(99_999_999_999_999, 'USD'), '999999999999.99');
});

t.test('limits: each boundary is inclusive and the first broken limit is named', async (t) => {
  const limits = { currency: 'USD', maxPerTransaction: 100, maxDaily: 300, maxMonthly: 1000, allowedPayees: ['bastion:tools'] };
  const buy = (amount: number, over: object = {}) => ({ amount, currency: 'USD', payee: 'bastion:tools', item: 'tool:filter', ...over });
  t.equal(spendRefusal(limits, { day: 200, month: 900 }, buy(100)), undefined, 'exactly at daily and monthly');
  t.equal(spendRefusal(limits, { day: 0, month: 0 }, buy(101)), 'LIMIT_PER_TRANSACTION');
  t.equal(spendRefusal(limits, { day: 201, month: 201 }, buy(100)), 'LIMIT_DAILY');
  t.equal(spendRefusal(limits, { day: 0, month: 901 }, buy(100)), 'LIMIT_MONTHLY');
  t.equal(spendRefusal(limits, { day: 0, month: 0 }, buy(1, { currency: 'EUR' })), 'CURRENCY_MISMATCH');
  t.equal(spendRefusal(limits, { day: 0, month: 0 }, buy(1, { payee: 'evil:corp', item: 'tool:redact' })), 'PAYEE_NOT_ALLOWED');
  t.equal(spendRefusal({ ...limits, allowedPayees: ['tool:redact'] }, { day: 0, month: 0 }, buy(1, { item: 'tool:redact', payee: 'x' })), undefined, 'an allowed item');
});

t.test('chain: a record changed anywhere breaks at that record', async (t) => {
  const records = [];
  let prev = GENESIS_HASH;
  for (let seq = 1; seq <= 3; seq++) {
    const r = { tenant_id: 'acme', seq, agent_id: null, kind: 'k', detail: '{}', created_at: seq, prev_hash: prev };
    prev = recordHash(r);
    records.push({ ...r, hash: prev });
  }
  t.equal(firstBreak(records, { seq: 3, hash: prev }), undefined);
  t.same(firstBreak(records.map((r) => (r.seq === 2 ? { ...r, kind: 'other' } : r))), { seq: 2, reason: 'hash_mismatch' });
  t.same(firstBreak([records[0], records[2]]), { seq: 2, reason: 'seq_gap' });
});
