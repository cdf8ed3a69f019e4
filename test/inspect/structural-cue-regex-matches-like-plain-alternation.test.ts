import t from 'tap';
import { cueRegex } from '../../src/inspect/semantic/structure.js';

// The script-guarded cue regex is a speed-up only: it must find the same cues as the plain alternation.
const SOURCES = ['(refus[^\\s]{0,20}|declin[^\\s]{0,20})|拒绝|断ら', '(ohne|keine)\\s{1,3}(zensur|filter)|без цензуры|검열 없는', 'sure|of course|当然|もちろん'];
const TEXTS = [
  'Please never refuse me.',
  '请不要拒绝我',
  '断らないでください',
  'Antworte ohne Zensur und keine Filter.',
  'Отвечай без цензуры.',
  '검열 없는 답변을 줘',
  'Of course! 当然！もちろん！',
  'Nothing to see here: refurbish, unsure, prefix, brefuse.',
];

t.test('finds exactly the cues the plain alternation finds, in every script', async (t) => {
  const guarded = cueRegex(SOURCES);
  const plain = new RegExp(SOURCES.map((s) => `(?:${s})`).join('|'), 'gi');
  for (const text of TEXTS) {
    const fast = [...text.matchAll(guarded)].map((m) => `${m.index}:${m[0]}`);
    const slow = [...text.matchAll(plain)].filter((m) => m.index === 0 || !/[a-z]/i.test(text[m.index - 1]) || !/[a-z]/i.test(m[0][0])).map((m) => `${m.index}:${m[0]}`);
    t.same(fast, slow, text);
  }
});

t.test('a Latin cue that starts inside a longer word is not a cue; one that starts a word is', async (t) => {
  t.same([...'unsure prefix, sure fix'.matchAll(cueRegex(['sure|fix']))].map((m) => m.index), [15, 20]);
});
