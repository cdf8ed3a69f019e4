import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { chunk, fakeUpstream, sendStream } from '../helpers/fake-upstream.js';
import { call } from '../helpers/http.js';
import { spawnGateway } from '../helpers/process.js';

const KEY = 'bst_shutdown_test_key_0123456789abcdefghijklmno';

/** A streamed chat completion over its own socket; resolves with the whole SSE body once the server ends it. */
function openStream(port: number, onFirstByte: () => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method: 'POST', path: '/v1/chat/completions', agent: false, headers: { 'content-type': 'application/json', 'x-api-key': KEY } },
      (res) => {
        let body = '';
        let first = true;
        res.on('data', (d: Buffer) => {
          body += d.toString();
          if (first) {
            first = false;
            onFirstByte();
          }
        });
        res.on('end', () => resolve(body));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'Count slowly to sixty.' }] }));
  });
}

t.test('SIGTERM: /readyz 503 first, new requests 503 + Retry-After + Connection: close, open streams end with an error and [DONE], exit 0', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'bastion-sigterm-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const upstream = await fakeUpstream(t);
  // 60 chunks, 100 ms apart: six seconds, far longer than the 1.5 s grace period.
  upstream.on((_req, res) => sendStream(res, [...Array.from({ length: 60 }, (_, i) => chunk({ content: `${i} ` })), chunk({}, 'stop'), '[DONE]'], 100));
  const gw = await spawnGateway(t, ['serve'], { BASTION_API_KEYS: `acme:${KEY}`, UPSTREAM_BASE_URL: upstream.url, BASTION_SHUTDOWN_GRACE_MS: '1500' }, dir);
  const base = `http://127.0.0.1:${gw.proxyPort}`;
  t.equal((await call(`${base}/readyz`)).status, 200);

  let started = 0;
  let allStarted!: () => void;
  const streaming = new Promise<void>((resolve) => (allStarted = resolve));
  const streams = Array.from({ length: 5 }, () => openStream(gw.proxyPort, () => ++started === 5 && allStarted()));
  await streaming;

  gw.child.kill('SIGTERM');
  // Wait for the drain to begin (the log line), then probe while the five streams are still open.
  while (!gw.stdout().includes('shutting down')) await new Promise((r) => setTimeout(r, 20));

  const ready = await call(`${base}/readyz`);
  t.equal(ready.status, 503, '/readyz fails while draining');
  t.equal(ready.json<{ checks: Record<string, string> }>().checks.shutdown, 'draining');
  t.equal((await call(`${base}/livez`)).status, 200, '/livez still answers');

  const refused = await call(`${base}/v1/models`, { headers: { 'x-api-key': KEY } });
  t.equal(refused.status, 503, 'a new request is answered, not refused at the TCP level');
  t.equal(refused.json<{ error: { code: string } }>().error.code, 'BASTION_ERR_SHUTTING_DOWN');
  t.equal(refused.headers['retry-after'], '5');
  t.equal(refused.headers.connection, 'close');
  const admin = await call(`http://127.0.0.1:${gw.adminPort}/admin/rules`);
  t.equal(admin.status, 503, 'the admin listener drains too');
  t.equal(admin.json<{ error: { code: string } }>().error.code, 'BASTION_ERR_SHUTTING_DOWN');

  const bodies = await Promise.all(streams);
  for (const body of bodies) {
    const events = body.split('\n\n').filter(Boolean);
    t.equal(events.at(-1), 'data: [DONE]', 'each stream ends with [DONE]');
    t.match(events.at(-2), /"code":"BASTION_ERR_SHUTTING_DOWN"/, 'preceded by an error event');
    t.ok(events.filter((e) => e.includes('chat.completion.chunk')).length < 60, 'the stream was ended by the grace period, not by the upstream');
  }
  t.equal(await gw.exited, 0, 'the process exits 0');
});
