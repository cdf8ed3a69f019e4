import t from 'tap';
import { DEFAULT_POLICY, type Verdict } from '../../src/inspect/types.js';
import { VerdictCache } from '../../src/workers/verdict-cache.js';

const verdict = (action: Verdict['action']): Verdict => ({ allowed: action !== 'block', risk_level: 'LOW', action, redacted_content: 'x', flags: [], secrets: [], timings_ms: {} });

t.test('a cached verdict is only reused for the same provenance and the same tenant policy', async (t) => {
  const cache = new VerdictCache(1024 * 1024);
  const base = { content: 'You are a helpful assistant.', kind: 'prompt' as const, strict: false, policy: DEFAULT_POLICY };
  const key = cache.key({ ...base, role: 'system' });
  cache.set(key, verdict('allow'));
  cache.set(key, verdict('allow')); // a text enters on its second sighting
  t.equal(cache.get(cache.key({ ...base, role: 'system' }))?.action, 'allow', 'same text, role and policy: a hit');
  t.equal(cache.get(cache.key({ ...base, role: 'user' })), undefined, 'the same text from a user is judged on its own');
  t.equal(cache.get(cache.key(base)), undefined, 'no role is another entry too');
  t.equal(cache.get(cache.key({ ...base, role: 'system', policy: { ...DEFAULT_POLICY, systemMessages: 'inspect' } })), undefined, 'another system_messages policy');
  t.equal(cache.get(cache.key({ ...base, role: 'system', policy: { ...DEFAULT_POLICY, secretMode: 'block' } })), undefined, 'another secret mode');
  t.equal(cache.get(cache.key({ ...base, role: 'system', policy: { ...DEFAULT_POLICY, allowDomains: ['acme.com'] } })), undefined, 'another allow-list');
  t.equal(cache.get(cache.key({ ...base, role: 'system', policy: { ...DEFAULT_POLICY, contentParts: 'block_unknown' } })), undefined, 'another content-parts policy');
  const reordered = Object.fromEntries(Object.entries(DEFAULT_POLICY).reverse()) as typeof DEFAULT_POLICY;
  t.equal(cache.key({ ...base, role: 'system', policy: reordered }), key, 'an equal policy built in another field order shares the entry');
});

t.test('texts judged once never take cache memory; the cache stays within its byte budget', async (t) => {
  const cache = new VerdictCache(256 * 1024);
  const text = (i: number) => ({ content: `message number ${i} `.repeat(20), kind: 'prompt' as const, strict: false, policy: DEFAULT_POLICY });
  for (let i = 0; i < 500; i++) cache.set(cache.key(text(i)), { ...verdict('allow'), redacted_content: text(i).content });
  t.equal(cache.usage().entries, 0, '500 distinct texts seen once: nothing cached');
  t.equal(cache.get(cache.key(text(7))), undefined);
  for (let round = 0; round < 2; round++) for (let i = 0; i < 1000; i++) cache.set(cache.key(text(i)), { ...verdict('allow'), redacted_content: text(i).content });
  const { entries, bytes } = cache.usage();
  t.ok(entries > 50, `repeated texts are cached (${entries} entries)`);
  t.ok(entries < 1000, "but not all 1,000: the budget evicted the least recently used");
  t.ok(bytes <= 256 * 1024, `estimated bytes ${bytes} within the 256 KB budget`);
  t.ok(cache.get(cache.key(text(999))), 'the most recent text is a hit');
});
