import { createServer } from 'node:http';
import t from 'tap';
import { loadConfig } from '../../../src/config/load.js';
import { McpUpstream } from '../../../src/mcp/proxy/upstream.js';
import { resolvedAddressRefusal } from '../../../src/mcp/proxy/upstream-lookup.js';
import { startTestGateway } from '../../helpers/gateway.js';
import { call } from '../../helpers/http.js';
import { MASTER_KEY } from '../../helpers/portal.js';

// IPv6 forms that carry an IPv4 address: NAT64 (64:ff9b::/96, 64:ff9b:1::/48), 6to4 (2002::/16), IPv4-compatible
// (::a.b.c.d), IPv4-mapped and -translated (::ffff:a.b.c.d, ::ffff:0:a.b.c.d), Teredo (2001::/32). Each is judged
// by the IPv4 address it carries, when registered and when connected to.
const METADATA = ['[64:ff9b::a9fe:a9fe]', '[64:ff9b::169.254.169.254]', '[2002:a9fe:a9fe::]', '[::169.254.169.254]', '[::ffff:169.254.169.254]', '[::ffff:0:a9fe:a9fe]', '[64:ff9b:1::a9fe:a9fe]', '[64:ff9b:1:a9fe:a9:fe00::]', '[2001:0:4136:e378:8000:63bf:5601:5601]'];
const LOOPBACK = ['[64:ff9b::7f00:1]', '[2002:7f00:1::]', '[::127.0.0.1]', '[::ffff:127.0.0.1]', '[::ffff:0:127.0.0.1]', '[64:ff9b::10.0.0.1]', '[2001:0:4136:e378:8000:63bf:80ff:fffe]'];

t.test('registration refuses IPv6 literals carrying a metadata, link-local, loopback or private IPv4 address', async (t) => {
  const gw = await startTestGateway(t, { config: { masterKey: MASTER_KEY } });
  const key = await gw.key('acme');
  const put = (host: string, name = 's') => call(`${gw.adminUrl}/mcp/servers/${name}`, { method: 'PUT', headers: { 'x-api-key': key }, body: { url: `http://${host}/mcp` } });
  for (const host of METADATA) {
    const reply = await put(host);
    t.equal(reply.status, 422, `${host} refused`);
    t.match(reply.body, /link local/, `${host} is named for the address it carries`);
  }
  for (const host of LOOPBACK) {
    const reply = await put(host);
    t.equal(reply.status, 422, `${host} refused`);
    t.match(reply.body, /private/, `${host} is refused as private`);
  }
  t.equal((await put('[64:ff9b::5db8:d822]', 'nat64')).status, 201, 'NAT64 of a public address is a public address');
  t.equal((await put('[2606:4700::1111]', 'v6')).status, 201, 'an ordinary public IPv6 address is accepted');
});

t.test('an IPv6 literal is checked again when connecting (a server registered before, or under other settings)', async (t) => {
  let reached = 0;
  const server = createServer((req, res) => {
    reached++;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  t.teardown(() => new Promise((done) => server.close(done)));
  const port = (server.address() as { port: number }).port;
  const send = (upstream: McpUpstream, host: string) =>
    upstream.send({ url: `http://${host}:${port}/mcp`, method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}', signal: AbortSignal.timeout(5000) }).then(
      async (r) => (await r.body.text(), r.statusCode),
      (e: { code?: string; cause?: { code?: string } }) => `${e.code} ${e.cause?.code}`,
    );
  const strict = new McpUpstream(loadConfig({}, { mcpPrivateUpstreams: false }));
  t.teardown(() => strict.close());
  for (const host of [...METADATA, ...LOOPBACK, '[::1]', '127.0.0.1']) t.equal(await send(strict, host), 'BASTION_ERR_UPSTREAM_UNREACHABLE EMCPUPSTREAMADDRESS', `${host} refused before connecting`);
  t.equal(reached, 0, 'nothing was sent');

  const open = new McpUpstream(loadConfig({}, { mcpPrivateUpstreams: true }));
  t.teardown(() => open.close());
  t.equal(await send(open, '[::ffff:127.0.0.1]'), 200, 'with private upstreams allowed, loopback in any spelling is reached');
  for (const host of METADATA) t.equal(await send(open, host), 'BASTION_ERR_UPSTREAM_UNREACHABLE EMCPUPSTREAMADDRESS', `${host} never is`);
  t.equal(reached, 1);
});

t.test('resolved addresses are judged by the IPv4 address they carry too', async (t) => {
  t.equal(resolvedAddressRefusal('64:ff9b::a9fe:a9fe', true), 'link_local');
  t.equal(resolvedAddressRefusal('2002:a9fe:a9fe::1', true), 'link_local');
  t.equal(resolvedAddressRefusal('::7f00:1', false), 'private');
  t.equal(resolvedAddressRefusal('64:ff9b::5db8:d822', false), undefined);
});
