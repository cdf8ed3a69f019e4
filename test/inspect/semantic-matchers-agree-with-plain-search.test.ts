import t from 'tap';
import lexicon from '../../config/jailbreak-concepts.json' with { type: 'json' };
import { AhoCorasick } from '../../src/inspect/semantic/aho-corasick.js';
import { FeatureSink } from '../../src/inspect/semantic/feature-sink.js';
import { mulberry32 } from '../../src/inspect/semantic/hashing.js';

// The table-driven Aho–Corasick automaton and the small-set feature sink are speed-ups only: the concept features
// and the model's sums must be exactly what a plain substring search and a plain "first occurrence" list give.

function plainMatches(patterns: string[], text: string): number[] {
  return patterns.flatMap((p, id) => (p.length > 0 && text.includes(p) ? [id] : []));
}

function scanned(matcher: AhoCorasick, count: number, text: string): number[] {
  const seen = new Uint8Array(count);
  matcher.scan(text, seen);
  return [...seen].flatMap((v, id) => (v ? [id] : []));
}

t.test('the concept lexicon matches exactly where a substring search does', async (t) => {
  const phrases = Object.values(lexicon.concepts).flat().map((p) => p.toLowerCase());
  const matcher = new AhoCorasick(phrases);
  const random = mulberry32(7);
  const pick = <T>(xs: T[]): T => xs[Math.floor(random() * xs.length)];
  const texts = ['', 'nothing to see here', 'ünïcödé 当然 もちろん', ...phrases.slice(0, 40).map((p) => `x${p}y`)];
  // Overlapping fragments of phrases stress the failure links (a match that starts inside another's prefix).
  for (let n = 0; n < 400; n++) {
    let text = '';
    while (text.length < 120) text += random() < 0.5 ? pick(phrases).slice(0, 1 + Math.floor(random() * 10)) : pick([' ', 'e', 'ы', '的', 'ing ']);
    texts.push(text);
  }
  let withMatches = 0;
  for (const text of texts) {
    const expected = plainMatches(phrases, text);
    if (expected.length > 0) withMatches++;
    t.same(scanned(matcher, phrases.length, text), expected, JSON.stringify(text.slice(0, 60)));
  }
  t.ok(withMatches > 100, `the texts exercise matches (${withMatches})`);
});

t.test('patterns that are suffixes or prefixes of each other all report', async (t) => {
  const patterns = ['he', 'she', 'his', 'hers', 'ushers', 's', 'h'];
  const matcher = new AhoCorasick(patterns);
  for (const text of ['ushers', 'ahishers', 'xyz', 'shshe', 'hhhh']) t.same(scanned(matcher, patterns.length, text), plainMatches(patterns, text), text);
});

t.test('a lexicon with more states than 16-bit cells can number matches exactly as a small one does', async (t) => {
  // ~8,000 random 12-letter words: ~90,000 trie states, past the 65,535 that the compact table holds.
  const random = mulberry32(23);
  const word = () => Array.from({ length: 12 }, () => String.fromCharCode(97 + Math.floor(random() * 26))).join('');
  const patterns = Array.from({ length: 8000 }, word);
  const matcher = new AhoCorasick(patterns);
  const texts = Array.from({ length: 60 }, (_, i) => `${word()} ${patterns[i * 131]} ${patterns[7999 - i].slice(3)} ${patterns[i * 7]}${patterns[i * 11]}`);
  let matched = 0;
  for (const text of texts) {
    const expected = plainMatches(patterns, text);
    matched += expected.length;
    t.same(scanned(matcher, patterns.length, text), expected);
  }
  t.ok(matched >= 120, `the texts hold matches (${matched})`);
});

t.test('the sink keeps each bucket once, in first-seen order, past its initial capacity and across resets', async (t) => {
  const sink = new FeatureSink(18, 8);
  const random = mulberry32(11);
  for (let round = 0; round < 3; round++) {
    sink.reset();
    const expected: number[] = [];
    const known = new Set<number>();
    for (let i = 0; i < 5000; i++) {
      // Half repeats of earlier hashes, half fresh ones; upper bits vary too (only the low 18 bits make the bucket).
      const hash = random() < 0.5 && expected.length > 0 ? expected[Math.floor(random() * expected.length)] + (1 << 20) : Math.floor(random() * 2 ** 32);
      const bucket = hash & ((1 << 18) - 1);
      sink.push(hash);
      if (!known.has(bucket)) {
        known.add(bucket);
        expected.push(bucket);
      }
    }
    t.same([...sink.snapshot()], expected, `round ${round}`);
  }
});
