/**
 * A model's stream can reach Bastion as one read holding many events (a fast upstream, or a slow reader catching up).
 * The first text is written to the client as soon as it is judged, on its own, rather than after every event that
 * arrived with it; what follows is judged and written together, and the stream as a whole is unchanged.
 */
import t from 'tap';
import { StreamGuard } from '../../src/proxy/chat/stream-guard.js';
import { chunk } from '../helpers/fake-upstream.js';

const sse = (e: unknown) => `data: ${JSON.stringify(e)}\n\n`;
const words = Array.from({ length: 200 }, (_, i) => `word${i} `);

function guardWith(writes: string[]): StreamGuard {
  return new StreamGuard({
    holdChars: 256,
    maxToolBytes: 1 << 20,
    write: (text) => writes.push(text),
    judgeToolCalls: async (calls) => ({ allowed: calls.map(() => true) }),
    onLeak: (leak) => ({ leak: leak.type }),
  });
}

const textOf = (raw: string) =>
  raw
    .split('\n')
    .filter((l) => l.startsWith('data: {'))
    .map((l) => (JSON.parse(l.slice(6)) as { choices: { delta: { content?: string } }[] }).choices[0]?.delta?.content ?? '')
    .join('');

t.test('the first token of a burst is written alone, the rest together, and the text is whole', async (t) => {
  const writes: string[] = [];
  const guard = guardWith(writes);
  await guard.feed(words.map((w) => sse(chunk({ content: w }))).join('') + 'data: [DONE]\n\n');
  t.equal(textOf(writes[0]), 'word0 ', 'the first write carries the first token only');
  t.ok(writes.length <= 4, `the other 199 events went out in a few writes (${writes.length} in all), not one per event`);
  t.equal(textOf(writes.join('')), words.join(''), 'every word reached the client, in order');
});

t.test('a credential later in the same burst still ends the stream before it is released', async (t) => {
  const writes: string[] = [];
  const guard = guardWith(writes);
  const events = [...words.slice(0, 50), 'key AKIAIOSFODNN7EXAMPLF ', ...words.slice(50, 60)];
  await guard.feed(events.map((w) => sse(chunk({ content: w }))).join(''));
  const raw = writes.join('');
  t.notMatch(raw, /AKIA/, 'the credential never reached the client');
  t.ok(guard.ended, 'the stream was ended at the credential');
  t.equal(textOf(writes[0]), 'word0 ', 'the text before it went out as usual');
});
