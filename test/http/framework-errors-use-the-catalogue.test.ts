import { connect, type Socket } from 'node:net';
import t, { type Test } from 'tap';
import { startTestGateway } from '../helpers/gateway.js';

interface RawReply {
  status: number;
  headers: Record<string, string>;
  body: string;
  json<T = Record<string, unknown>>(): T;
}

/**
 * One real keep-alive TCP connection, spoken to byte by byte: the client a browser or an HTTP pool would be, but able
 * to send what such clients refuse to (an unframed body, a 20 KB header). Responses are framed by Content-Length.
 */
class RawConnection {
  private buffer = Buffer.alloc(0);
  private waiting?: () => void;
  /** How the server ended the connection: 'end' (a clean close after the answer) or 'reset'. */
  closed?: 'end' | 'reset';
  private readonly socket: Socket;

  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.on('data', (chunk) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.waiting?.();
    });
    this.socket.on('error', () => (this.closed = 'reset'));
    this.socket.on('end', () => (this.closed ??= 'end'));
    this.socket.on('close', () => {
      this.closed ??= 'end';
      this.waiting?.();
    });
  }

  async send(raw: string): Promise<RawReply> {
    this.socket.write(raw);
    for (;;) {
      const reply = this.take();
      if (reply) return reply;
      if (this.closed) throw new Error(`connection closed (${this.closed}) before a complete answer`);
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }

  /** Resolves once the server has closed the connection. */
  async closedByServer(): Promise<'end' | 'reset'> {
    while (!this.closed) await new Promise<void>((resolve) => (this.waiting = resolve));
    return this.closed;
  }

  get open(): boolean {
    return !this.closed && !this.socket.destroyed;
  }

  destroy(): void {
    this.socket.destroy();
  }

  private take(): RawReply | undefined {
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end < 0) return undefined;
    const [statusLine, ...lines] = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const i = line.indexOf(':');
      headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    if (this.buffer.length < end + 4 + length) return undefined;
    const body = this.buffer.subarray(end + 4, end + 4 + length).toString('utf8');
    this.buffer = this.buffer.subarray(end + 4 + length);
    return { status: Number(statusLine.split(' ')[1]), headers, body, json: <T>() => JSON.parse(body) as T };
  }
}

const get = (path: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: bastion.test\r\n${extra}\r\n`;

function assertCatalogue(t: Test, res: RawReply, status: number, code: string): void {
  t.equal(res.status, status);
  t.match(res.headers['content-type'], /^application\/json/);
  const body = res.json<{ error: { code: string; message: string } }>();
  t.same(Object.keys(body), ['error'], 'the catalogue shape, nothing of Fastify\'s own');
  t.equal(body.error.code, code);
  t.type(body.error.message, 'string');
  t.match(res.headers['ratelimit-policy'], /"requests-per-minute";q=\d+;w=60/, 'RateLimit-Policy, as on every response (SPEC §8)');
}

t.test('framework errors answer in the catalogue shape and never reset a keep-alive connection (issue 10, defect 3)', async (t) => {
  const gw = await startTestGateway(t);
  const ports = { proxy: gw.ports.proxy, admin: gw.ports.admin };
  const open = (port: number) => {
    const c = new RawConnection(port);
    t.teardown(() => c.destroy());
    return c;
  };

  t.test('a GET with an unframed body: 400 from the catalogue with Connection: close, then a clean close', async (t) => {
    const c = open(ports.proxy);
    t.equal((await c.send(get('/health'))).status, 200, 'the connection served a request first');
    // No Content-Length: the body bytes are read as the next request line, which the parser cannot read. The parser
    // may fail before the GET is answered, so its 200 is optional.
    let bad = await c.send(get('/health') + '{"content":"x"}\r\n\r\n');
    if (bad.status === 200) bad = await c.send('');
    assertCatalogue(t, bad, 400, 'BASTION_ERR_BAD_REQUEST');
    t.equal(bad.headers.connection, 'close', 'the client is told the connection ends');
    t.equal(await c.closedByServer(), 'end', 'closed cleanly after the answer, not reset');
    t.notMatch(bad.body, /content/, 'nothing of the request is echoed');
  });

  t.test('a header over the parser limit → 431 from the catalogue with Connection: close', async (t) => {
    for (const port of [ports.proxy, ports.admin]) {
      const c = open(port);
      const res = await c.send(get('/livez', `X-Filler: ${'a'.repeat(20_000)}\r\n`));
      assertCatalogue(t, res, 431, 'BASTION_ERR_HEADERS_TOO_LARGE');
      t.equal(res.headers.connection, 'close');
      t.equal(await c.closedByServer(), 'end');
    }
  });

  t.test('a request target over 8 KB → 414 from the catalogue, and the connection stays usable', async (t) => {
    for (const port of [ports.proxy, ports.admin]) {
      const c = open(port);
      const res = await c.send(get(`/livez?q=${'a'.repeat(9000)}`));
      assertCatalogue(t, res, 414, 'BASTION_ERR_URI_TOO_LONG');
      t.not(res.headers.connection, 'close');
      t.equal((await c.send(get('/livez'))).status, 200, 'the next request on the same connection is answered');
    }
  });

  t.test('a path parameter over the router limit → 414 from the catalogue', async (t) => {
    const c = open(ports.admin);
    const res = await c.send(`PATCH /portal/keys/${'k'.repeat(300)} HTTP/1.1\r\nHost: bastion.test\r\nContent-Length: 0\r\n\r\n`);
    assertCatalogue(t, res, 414, 'BASTION_ERR_URI_TOO_LONG');
    t.equal((await c.send(get('/livez'))).status, 200, 'the connection survives');
  });

  t.test('a 400 the router raises (bad percent-encoding) keeps the keep-alive connection usable', async (t) => {
    for (const port of [ports.proxy, ports.admin]) {
      const c = open(port);
      const res = await c.send(get('/%zz'));
      assertCatalogue(t, res, 400, 'BASTION_ERR_BAD_REQUEST');
      t.not(res.headers.connection, 'close');
      const next = await c.send(get('/livez'));
      t.equal(next.status, 200, 'the next request on the same connection is answered');
      t.ok(c.open);
    }
  });

  t.test('bad JSON, a wrong media type and a body over the limit use the catalogue or validation shape, and say when they close', async (t) => {
    const post = (path: string, type: string, body: string, length = Buffer.byteLength(body)) =>
      `POST ${path} HTTP/1.1\r\nHost: bastion.test\r\nContent-Type: ${type}\r\nContent-Length: ${length}\r\n\r\n${body}`;
    const c = open(ports.admin);
    const media = await c.send(post('/portal/auth/login', 'text/xml', '<a/>'));
    assertCatalogue(t, media, 415, 'BASTION_ERR_UNSUPPORTED_MEDIA_TYPE');
    const json = await c.send(post('/portal/auth/login', 'application/json', '{"email":'));
    t.equal(json.status, 422);
    t.same(json.json(), { detail: [{ loc: ['body'], msg: 'Invalid JSON', type: 'json_invalid' }] });
    if (json.headers.connection === 'close') t.equal(await c.closedByServer(), 'end');
    else t.equal((await c.send(get('/livez'))).status, 200);
  });
});
