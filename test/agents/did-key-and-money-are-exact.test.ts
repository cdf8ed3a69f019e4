import t from 'tap';
import { didFromEd25519, ed25519FromDid } from '../../src/agents/did-key.js';
import { spendRefusal } from '../../src/agents/limits.js';
import { toDecimal, toMinor } from '../../src/agents/money.js';
import { chainKey, firstBreak, headMac, recordHash, recordMac, GENESIS_HASH } from '../../src/agents/activity-chain.js';

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

t.test('chain: keyed records; a change anywhere breaks at that record, a re-hash without the key too', async (t) => {
  const key = chainKey(Buffer.alloc(32, 1));
  t.not(key.toString('hex'), chainKey(Buffer.alloc(32, 2)).toString('hex'), 'each master key its own chain key');
  const build = (hashOf: (r: Parameters<typeof recordHash>[0]) => string) => {
    const records = [];
    let prev = GENESIS_HASH;
    for (let seq = 1; seq <= 3; seq++) {
      const r = { tenant_id: 'acme', seq, agent_id: null, kind: 'k', detail: '{}', created_at: seq, prev_hash: prev };
      prev = hashOf(r);
      records.push({ ...r, hash: prev });
    }
    return { records, head: (legacy_seq: number) => ({ tenant_id: 'acme', seq: 3, hash: prev, legacy_seq }) };
  };
  const keyed = build((r) => recordMac(key, r));
  const head = keyed.head(0);
  t.equal(firstBreak(key, keyed.records, { ...head, mac: headMac(key, head) }), undefined);
  t.same(firstBreak(key, keyed.records.map((r) => (r.seq === 2 ? { ...r, kind: 'other' } : r)), { ...head, mac: headMac(key, head) }), { seq: 2, reason: 'hash_mismatch' });
  t.same(firstBreak(key, [keyed.records[0], keyed.records[2]], { ...head, mac: headMac(key, head) }), { seq: 2, reason: 'seq_gap' });

  const plain = build(recordHash);
  const forged = plain.head(0);
  t.same(firstBreak(key, plain.records, { ...forged, mac: headMac(Buffer.alloc(32), forged) }), { seq: 1, reason: 'hash_mismatch' }, 'plain SHA-256 is not the keyed hash');
  const legacy = plain.head(3);
  t.equal(firstBreak(key, plain.records, { ...legacy, mac: headMac(key, legacy) }), undefined, 'records sealed as legacy verify as plain SHA-256');
  t.same(firstBreak(key, plain.records, { ...legacy, mac: null }), { seq: 3, reason: 'head_mismatch' }, 'an unsealed head is not trusted');
  t.same(firstBreak(key, keyed.records.slice(0, 2), { ...head, seq: 2, hash: keyed.records[1].hash, mac: head.hash }), { seq: 2, reason: 'head_mismatch' }, 'a head moved back without the key');
});
