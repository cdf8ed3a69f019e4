import t, { type Test } from 'tap';
import { fakeUpstream } from '../helpers/fake-upstream.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { freePort } from '../helpers/wait.js';

interface UpstreamFailure {
  error: { code: string; message: string; upstream?: string; cause?: string };
}

/** One chat through a gateway whose upstream is `upstreamBaseUrl`: the answer and the gateway's log. */
async function chatThrough(t: Test, upstreamBaseUrl: string) {
  const gw = await startTestGateway(t, { config: { upstreamBaseUrl, upstreamConnectTimeoutMs: 2000, upstreamBodyTimeoutMs: 300 } });
  const key = await gw.key('acme');
  const res = await call(`${gw.proxyUrl}/v1/chat/completions`, { headers: { 'x-api-key': key }, body: { model: 'm', messages: [{ role: 'user', content: 'hello' }] } });
  return { res, body: res.json<UpstreamFailure>(), logs: gw.logs };
}

t.test('a 502 says which upstream failed and why, in the answer and the log line, without credentials', async (t) => {
  t.test('connection refused', async (t) => {
    const port = await freePort();
    const { res, body, logs } = await chatThrough(t, `http://user:s3cret-pass@127.0.0.1:${port}/openai`);
    t.equal(res.status, 502);
    t.equal(body.error.code, 'BASTION_ERR_UPSTREAM_UNREACHABLE');
    t.equal(body.error.upstream, `http://127.0.0.1:${port}`, 'the origin only');
    t.equal(body.error.cause, 'connection_refused');
    t.match(body.error.message, `http://127.0.0.1:${port} could not be reached: connection refused`);
    const line = logs.lines.find((l) => l.includes('upstream call failed'));
    t.ok(line, 'a log line for the failure');
    t.match(JSON.parse(line!), { upstream: `http://127.0.0.1:${port}`, cause: 'connection_refused', code: 'BASTION_ERR_UPSTREAM_UNREACHABLE' });
    t.notMatch(logs.text + res.body, /s3cret-pass|\/openai/, 'no credential and no path in the answer or the logs');
  });

  t.test('a host name that does not resolve', async (t) => {
    const { res, body } = await chatThrough(t, 'http://upstream.invalid:8000');
    t.equal(res.status, 502);
    t.equal(body.error.upstream, 'http://upstream.invalid:8000');
    t.equal(body.error.cause, 'dns');
  });

  t.test('an answer whose body stalls: 504 naming the upstream and the body timeout', async (t) => {
    const stalling = await fakeUpstream(t);
    stalling.on((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"id":');
    });
    const { res, body } = await chatThrough(t, stalling.url);
    t.equal(res.status, 504);
    t.equal(body.error.code, 'BASTION_ERR_UPSTREAM_TIMEOUT');
    t.equal(body.error.upstream, new URL(stalling.url).origin);
    t.equal(body.error.cause, 'body_timeout');
  });

  t.test('TLS to a server that does not speak it', async (t) => {
    const plain = await fakeUpstream(t);
    const { res, body } = await chatThrough(t, plain.url.replace('http://', 'https://'));
    t.equal(res.status, 502);
    t.equal(body.error.cause, 'tls');
    t.match(body.error.message, /TLS handshake failed/);
  });
});
