import t from 'tap';
import secretsConfig from '../../config/secrets.json' with { type: 'json' };
import { fakeUpstream, chunk, sendStream } from '../helpers/fake-upstream.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { credentialSamples } from './fixtures/credential-samples.js';

interface StreamChunk {
  choices?: { delta?: { content?: string }; finish_reason?: string | null }[];
  bastion?: { stage?: string };
}

/** What an SSE client would have shown: the concatenated assistant text, and whether the stream was cut by Bastion. */
function readStream(body: string): { text: string; cut: boolean } {
  let text = '';
  let cut = false;
  for (const line of body.split('\n')) {
    if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
    const event = JSON.parse(line.slice(6)) as StreamChunk;
    for (const choice of event.choices ?? []) {
      if (typeof choice.delta?.content === 'string') text += choice.delta.content;
      if (choice.finish_reason === 'content_filter') cut = true;
    }
  }
  return { text, cut };
}

/** Longest prefix of `secret` found anywhere in `text`. */
function longestPrefix(text: string, secret: string): number {
  for (let n = secret.length; n > 0; n--) if (text.includes(secret.slice(0, n))) return n;
  return 0;
}

function split(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

t.test('the credential samples cover every type the redactor knows', async (t) => {
  const sampled = new Set(credentialSamples().map((s) => s.type));
  const known = [...secretsConfig.tokenRules, ...secretsConfig.keyedRules].map((r) => r.type);
  for (const type of known) t.ok(sampled.has(type), `${type} has a sample`);
});

t.test('streamed in 1-, 2- and 3-character chunks, at most 4 characters of any credential reach the client', async (t) => {
  const upstream = await fakeUpstream(t);
  const gw = await startTestGateway(t, { config: { upstreamBaseUrl: upstream.url } });
  const key = await gw.key('stream-secrets', { rate: 3000, plan: 'professional' });
  let pieces: string[] = [];
  upstream.on((_req, res) => sendStream(res, [chunk({ role: 'assistant', content: '' }), ...pieces.map((p) => chunk({ content: p })), chunk({}, 'stop'), '[DONE]']));

  for (const size of [1, 2, 3]) {
    for (const sample of credentialSamples()) {
      pieces = split(`${sample.before}${sample.secret}${sample.after} and that is all you need.`, size);
      const res = await call(`${gw.proxyUrl}/v1/chat/completions`, {
        headers: { 'x-api-key': key },
        body: { model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'show me the deployment settings' }] },
      });
      const { text, cut } = readStream(res.body);
      const leaked = longestPrefix(text, sample.secret);
      t.ok(leaked <= 4, `${sample.type} in ${size}-char chunks: ${leaked} characters reached the client`);
      t.ok(cut, `${sample.type} in ${size}-char chunks: the stream was cut with content_filter`);
      t.notOk(text.includes('that is all you need'), `${sample.type}: nothing after the credential was released`);
    }
  }
});

t.test('ordinary prose streams word by word: a word is held only until it ends', async (t) => {
  const upstream = await fakeUpstream(t);
  const gw = await startTestGateway(t, { config: { upstreamBaseUrl: upstream.url } });
  const key = await gw.key('stream-prose', { rate: 600, plan: 'startup' });
  const prose = 'The quarterly report is ready. Revenue grew 12% (see table 3), and the team shipped v2.4.1 on time — 上线顺利。 Thanks!';
  // Spaced as a model writes (text that arrives together is judged and released together: the fast path).
  upstream.on((_req, res) => sendStream(res, [chunk({ role: 'assistant', content: '' }), ...split(prose, 2).map((p) => chunk({ content: p })), chunk({}, 'stop'), '[DONE]'], 15));
  const res = await call(`${gw.proxyUrl}/v1/chat/completions`, {
    headers: { 'x-api-key': key },
    body: { model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'summarise the report' }] },
  });
  const deltas: string[] = [];
  for (const line of res.body.split('\n')) {
    if (!line.startsWith('data: {')) continue;
    const content = (JSON.parse(line.slice(6)) as StreamChunk).choices?.[0]?.delta?.content;
    if (content) deltas.push(content);
  }
  t.equal(deltas.join(''), prose, 'the whole text arrives unchanged');
  t.notOk(readStream(res.body).cut, 'prose is not cut');
  // Held until its word ends: each release (except the last) ends at a word boundary, and no release is a whole sentence.
  t.ok(deltas.length >= 15, `${deltas.length} releases for ${prose.split(' ').length} words`);
  for (const d of deltas.slice(0, -1)) t.ok(d.length <= 20, `release "${d}" is at most a word or two`);
});

t.test('a run longer than BASTION_STREAM_HOLD_CHARS is not held forever: it goes out in scanned pieces', async (t) => {
  const upstream = await fakeUpstream(t);
  const gw = await startTestGateway(t, { config: { upstreamBaseUrl: upstream.url, streamHoldChars: 64 } });
  const key = await gw.key('stream-blob', { rate: 600, plan: 'startup' });
  // A long hexadecimal digest run (no credential format), streamed in 3-character chunks.
  const blob = Array.from({ length: 600 }, (_, i) => '0123456789abcdef'[(i * 7) % 16]).join('');
  upstream.on(async (_req, res) => {
    await sendStream(res, [chunk({ role: 'assistant', content: '' }), ...split(`digest: ${blob}`, 3).map((p) => chunk({ content: p })), chunk({}, 'stop'), '[DONE]'], 5);
  });
  const res = await call(`${gw.proxyUrl}/v1/chat/completions`, {
    headers: { 'x-api-key': key },
    body: { model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'print the digest' }] },
  });
  const deltas: string[] = [];
  for (const line of res.body.split('\n')) {
    if (!line.startsWith('data: {')) continue;
    const content = (JSON.parse(line.slice(6)) as StreamChunk).choices?.[0]?.delta?.content;
    if (content) deltas.push(content);
  }
  t.equal(deltas.join(''), `digest: ${blob}`, 'everything arrives');
  t.ok(deltas.length > 5, `released in ${deltas.length} pieces, not in one piece at the end`);
});
