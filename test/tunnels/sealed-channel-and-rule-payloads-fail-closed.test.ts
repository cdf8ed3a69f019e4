import { randomBytes } from 'node:crypto';
import t from 'tap';
import { acceptSequence, MAX_MESSAGES, MAX_PLAINTEXT_BYTES, openMessage, REPLAY_WINDOW, sealMessage } from '../../src/tunnels/channel.js';
import { exportRefusal, exportRule, parsePayload } from '../../src/tunnels/rules.js';
import { memoryVolatileStore } from '../../src/redis/volatile-store.js';

const keys = { a2b: randomBytes(32), b2a: randomBytes(32) };
const text = Buffer.from('{"type":"close"}');

t.test('a sealed message opens only with its tunnel, direction, sequence number and keys', async (t) => {
  const m = sealMessage(keys, 'tun_x', 'a2b', 7, text);
  t.same(openMessage(keys, 'tun_x', m), text);
  t.equal(openMessage(keys, 'tun_y', m), undefined, 'another tunnel');
  t.equal(openMessage(keys, 'tun_x', { ...m, seq: 8 }), undefined, 'another sequence number');
  t.equal(openMessage(keys, 'tun_x', { ...m, dir: 'b2a' }), undefined, 'the other direction');
  t.equal(openMessage({ a2b: randomBytes(32), b2a: keys.b2a }, 'tun_x', m), undefined, 'another key (a shredded one cannot be guessed)');
  t.equal(openMessage(keys, 'tun_x', { ...m, nonce: 'AAAA' }), undefined, 'a short nonce');
  t.not(sealMessage(keys, 'tun_x', 'a2b', 7, text).nonce, m.nonce, 'a fresh random nonce per message');
  t.throws(() => sealMessage(keys, 'tun_x', 'a2b', 1, Buffer.alloc(MAX_PLAINTEXT_BYTES + 1)), 'over the size bound');
  t.throws(() => sealMessage(keys, 'tun_x', 'a2b', MAX_MESSAGES + 1, text), 'past the message bound');
});

t.test('the replay window accepts each number once, in any order within the window', async (t) => {
  let s = { highest: 0, seen: [] as number[] };
  for (const seq of [1, 3, 2, 100]) s = acceptSequence(s, seq)!;
  t.equal(acceptSequence(s, 100), undefined, 'replay');
  t.equal(acceptSequence(s, 100 - REPLAY_WINDOW), undefined, 'older than the window');
  t.ok(acceptSequence(s, 100 - REPLAY_WINDOW + 1), 'late but inside the window');
  t.ok(s.seen.length <= REPLAY_WINDOW, 'state stays bounded');
  const store = memoryVolatileStore();
  t.ok(await store.accept('w', 5, 1000));
  t.notOk(await store.accept('w', 5, 1000), 'the memory store applies the same window');
});

t.test('the memory store forgets at its TTL (clock injected) and take() gives a value once', async (t) => {
  let now = 1_000;
  const store = memoryVolatileStore(() => now);
  await store.put('hs', 'v', 600_000);
  t.equal(await store.get('hs'), 'v');
  now += 600_000;
  t.equal(await store.get('hs'), undefined, 'gone after 10 minutes');
  await store.put('k', 'v', 1000);
  t.equal(await store.take('k'), 'v');
  t.equal(await store.take('k'), undefined);
});

t.test('only promoted, active, home-made rules are exported, with no tenant, hash or explanation', async (t) => {
  const row = { kind: 'regex', pattern: 'a\\s+b', family: null, status: 'active', scope: 'global', source: 'offline', hits: 4, fp_reports: 1, tenant_id: 'acme', content_hash: 'x', explanation: 'y' };
  t.equal(exportRefusal(row), undefined);
  t.match(exportRefusal({ ...row, source: 'syndicate' }), /never re-exported/);
  t.match(exportRefusal({ ...row, scope: 'tenant' }), /one tenant/);
  t.match(exportRefusal({ ...row, status: 'disabled' }), /disabled/);
  t.same(exportRule(row), { type: 'evolved_rule', rule: { kind: 'regex', pattern: 'a\\s+b', family: null, hits: 4, fp_reports: 1 } });
});

t.test('an opened payload is parsed strictly: anything unexpected is refused', async (t) => {
  const ok = { type: 'evolved_rule', rule: { kind: 'phrase', pattern: 'x y z', family: null, hits: 0, fp_reports: 0 } };
  t.same(parsePayload(Buffer.from(JSON.stringify(ok))), ok);
  t.same(parsePayload(Buffer.from('{"type":"close"}')), { type: 'close' });
  for (const bad of [
    'not json',
    'null',
    '{"type":"close","x":1}',
    JSON.stringify({ ...ok, tenant_id: 'acme' }),
    JSON.stringify({ ...ok, rule: { ...ok.rule, text: 'the attack' } }),
    JSON.stringify({ ...ok, rule: { ...ok.rule, kind: 'script' } }),
    JSON.stringify({ ...ok, rule: { ...ok.rule, pattern: 'x'.repeat(4097) } }),
    JSON.stringify({ ...ok, rule: { ...ok.rule, hits: -1 } }),
  ]) t.equal(parsePayload(Buffer.from(bad)), undefined, bad.slice(0, 60));
});
