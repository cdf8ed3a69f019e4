import t from 'tap';
import { request } from 'undici';
import { chunk, completion, fakeUpstream } from '../helpers/fake-upstream.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';

const messages = [{ role: 'user', content: 'Tell me about Paris.' }];
const sse = (e: unknown) => `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

t.test('slow, stalling and dying upstreams: the client gets inspected text or an explicit error, never a silent cut', async (t) => {
  const upstream = await fakeUpstream(t);
  // Silence longer than 600 ms between body chunks counts as a stall.
  const gw = await startTestGateway(t, { config: { upstreamBaseUrl: upstream.url, upstreamBodyTimeoutMs: 600 } });
  const key = await gw.key('acme', { rate: 1000 });
  const stream = () =>
    request(`${gw.proxyUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({ model: 'm', stream: true, messages }),
    });

  t.test('a slow drip is relayed as it comes (the client reads the first words before the upstream sends the rest), ending with [DONE]', async (t) => {
    const words = ['Paris ', 'is ', 'the ', 'capital ', 'of ', 'France.'];
    let seen!: () => void;
    const clientSawFirstWords = new Promise<'seen'>((resolve) => (seen = () => resolve('seen')));
    let upstreamWaited: 'seen' | 'gave up' = 'gave up';
    upstream.on(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sse(chunk({ content: words[0] })) + sse(chunk({ content: words[1] })));
      // The rest waits until the client has the first words: a buffering proxy would make it give up.
      upstreamWaited = await Promise.race([clientSawFirstWords, sleep(5000).then(() => 'gave up' as const)]);
      for (const w of words.slice(2)) {
        res.write(sse(chunk({ content: w })));
        await sleep(100);
      }
      res.end(sse(chunk({}, 'stop')) + sse('[DONE]'));
    });
    const res = await stream();
    let text = '';
    for await (const c of res.body) {
      text += c.toString();
      if (text.includes('Paris')) seen();
    }
    t.equal(upstreamWaited, 'seen', 'the first words reached the client while the upstream was still holding the rest');
    t.match(text, /France/);
    t.match(text, /data: \[DONE\]\s*$/, 'a complete stream ends with [DONE]');
  });

  t.test('a stream that stalls mid-way ends with an error event and no [DONE]', async (t) => {
    upstream.on(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sse(chunk({ content: 'Paris is ' })));
      await sleep(3000); // silent past the body timeout
      if (!res.destroyed) res.end(sse('[DONE]'));
    });
    const res = await stream();
    const text = await res.body.text();
    t.match(text, /BASTION_ERR_STREAM_INTERRUPTED/, 'the client is told the stream broke');
    t.notMatch(text, /\[DONE\]/, 'a broken stream never looks complete');
  });

  t.test('a stream whose upstream connection dies mid-way ends with an error event and no [DONE]', async (t) => {
    upstream.on(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sse(chunk({ content: 'Paris is ' })));
      await sleep(50);
      res.socket!.destroy();
    });
    const text = await (await stream()).body.text();
    t.match(text, /BASTION_ERR_STREAM_INTERRUPTED/);
    t.notMatch(text, /\[DONE\]/);
  });

  t.test('a stream dripping a secret a character at a time never releases more than its public prefix', async (t) => {
    const secret = 'AKIAZ7QW3R5T6Y7U8I9O';
    upstream.on(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sse(chunk({ content: 'The key is ' })));
      for (const ch of secret) {
        res.write(sse(chunk({ content: ch })));
        await sleep(20);
      }
      res.end(sse(chunk({ content: ' ok.' }, 'stop')) + sse('[DONE]'));
    });
    const text = await (await stream()).body.text();
    const released = text
      .split('\n')
      .filter((l) => l.startsWith('data: {'))
      .map((l) => (JSON.parse(l.slice(6)) as { choices: { delta: { content?: string } }[] }).choices[0]?.delta?.content ?? '')
      .join('');
    t.notMatch(released, /AKIAZ7QW3R5T/, 'the credential never reaches the client');
  });

  t.test('a non-streamed body that stalls before it ends → 504/502 in the catalogue shape, nothing partial', async (t) => {
    const body = JSON.stringify(completion({ content: 'Paris is the capital of France.' }));
    upstream.on(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
      res.write(body.slice(0, 20));
      await sleep(3000);
      if (!res.destroyed) res.end(body.slice(20));
    });
    const res = await call(`${gw.proxyUrl}/v1/chat/completions`, { headers: { 'x-api-key': key }, body: { model: 'm', messages } });
    t.ok(res.status === 504 || res.status === 502, `an error status (${res.status})`);
    t.match(res.json<{ error: { code: string } }>().error.code, /^BASTION_ERR_UPSTREAM_/);
    t.notMatch(res.body, /Paris/, 'no partial completion is released');
  });
});
