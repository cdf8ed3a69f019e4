import { createServer } from 'node:http';
import t from 'tap';
import { loadConfig } from '../../../src/config/load.js';
import { McpUpstream } from '../../../src/mcp/proxy/upstream.js';
import { refusedAsPrivate, resolvedAddressRefusal, type Resolve } from '../../../src/mcp/proxy/upstream-lookup.js';
import { LOOPBACK, METADATA } from './ipv4-carrying-literals.js';

// A name registered while it pointed somewhere public can later resolve to the gateway's own network (DNS rebinding):
// the address is checked when connecting. The resolver stands in for DNS; the server and the connections are real.
const DNS: Record<string, string> = { 'rebind.example': '127.0.0.1', 'metadata.example': '169.254.169.254' };
const resolve: Resolve = (hostname, callback) => (DNS[hostname] ? callback(null, [{ address: DNS[hostname], family: 4 }]) : callback(Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' }), []));

/** A loopback server counting what reached it, and a send through an McpUpstream to it under any host spelling. */
async function loopbackTarget(t: { teardown(fn: () => unknown): void }) {
  const target = { reached: 0, send: async (_upstream: McpUpstream, _host: string): Promise<number | string | undefined> => undefined };
  const server = createServer((req, res) => {
    target.reached++;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  t.teardown(() => new Promise((done) => server.close(done)));
  const port = (server.address() as { port: number }).port;
  target.send = (upstream, host) =>
    upstream.send({ url: `http://${host}:${port}/mcp`, method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}', signal: AbortSignal.timeout(5000) }).then(
      async (r) => (await r.body.text(), r.statusCode),
      (e: { code?: string; cause?: { code?: string } }) => (e.cause?.code === 'EMCPUPSTREAMADDRESS' ? `${e.code} (refused)` : e.code),
    );
  return target;
}

t.test('the MCP proxy connects only to addresses a tenant may reach, as resolved at connection time', async (t) => {
  const target = await loopbackTarget(t);
  const send = target.send;

  const strict = new McpUpstream(loadConfig({}, { mcpPrivateUpstreams: false }), resolve);
  t.teardown(() => strict.close());
  t.equal(await send(strict, 'rebind.example'), 'BASTION_ERR_UPSTREAM_UNREACHABLE (refused)', 'a name resolving to loopback is refused');
  t.equal(await send(strict, 'metadata.example'), 'BASTION_ERR_UPSTREAM_UNREACHABLE (refused)', 'a name resolving to the metadata address is refused');
  t.equal(target.reached, 0, 'nothing was sent');

  const open = new McpUpstream(loadConfig({}, { mcpPrivateUpstreams: true }), resolve);
  t.teardown(() => open.close());
  t.equal(await send(open, 'rebind.example'), 200, 'with private upstreams allowed, the loopback server is reached');
  t.equal(await send(open, 'metadata.example'), 'BASTION_ERR_UPSTREAM_UNREACHABLE (refused)', 'the metadata address never is');
  t.equal(target.reached, 1);
});

// What the agent is told rests on why the send was refused: a loopback or private address (which the operator's
// BASTION_MCP_PRIVATE_UPSTREAMS=true allows) is named as such, whether written in the URL or resolved from a host name
// with dots (which registration cannot judge); a link-local or metadata address, which no setting allows, is not.
t.test('a send refused for a loopback or private address says so, for a host name as for an address in the URL', async (t) => {
  const strict = new McpUpstream(loadConfig({}, { mcpPrivateUpstreams: false }), resolve);
  t.teardown(() => strict.close());
  // Refused before any connection is made: the port is never dialled.
  const failure = (host: string) =>
    strict.send({ url: `http://${host}:9/mcp`, method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}', signal: AbortSignal.timeout(5000) }).then(
      () => undefined,
      (e: unknown) => e,
    );
  for (const host of ['rebind.example', '127.0.0.1', '[::1]']) t.ok(refusedAsPrivate(await failure(host)), `${host}: refused as loopback or private`);
  for (const host of ['metadata.example', '169.254.169.254', 'nowhere.example']) {
    const err = await failure(host);
    t.ok(err, `${host} fails`);
    t.notOk(refusedAsPrivate(err), `${host}: not a refusal the setting would lift`);
  }
});

// Addresses written in the URL (here IPv6 forms carrying an IPv4 address) never go through the lookup: they are checked on every send, under the settings of the day.
t.test('an address written in the URL is checked again when connecting (a server registered before, or under other settings)', async (t) => {
  const target = await loopbackTarget(t);
  const strict = new McpUpstream(loadConfig({}, { mcpPrivateUpstreams: false }));
  t.teardown(() => strict.close());
  for (const host of [...METADATA, ...LOOPBACK, '[::1]', '127.0.0.1']) t.equal(await target.send(strict, host), 'BASTION_ERR_UPSTREAM_UNREACHABLE (refused)', `${host} refused before connecting`);
  t.equal(target.reached, 0, 'nothing was sent');
  const open = new McpUpstream(loadConfig({}, { mcpPrivateUpstreams: true }));
  t.teardown(() => open.close());
  t.equal(await target.send(open, '[::ffff:127.0.0.1]'), 200, 'with private upstreams allowed, loopback in any spelling is reached');
  for (const host of METADATA) t.equal(await target.send(open, host), 'BASTION_ERR_UPSTREAM_UNREACHABLE (refused)', `${host} never is`);
  t.equal(target.reached, 1);
});

t.test('which resolved addresses are refused', async (t) => {
  t.equal(resolvedAddressRefusal('::ffff:127.0.0.1', false), 'private');
  t.equal(resolvedAddressRefusal('10.1.2.3', false), 'private');
  t.equal(resolvedAddressRefusal('10.1.2.3', true), undefined);
  t.equal(resolvedAddressRefusal('100.100.100.200', true), 'link_local');
  t.equal(resolvedAddressRefusal('fe80::1', true), 'link_local');
  t.equal(resolvedAddressRefusal('93.184.216.34', false), undefined);
});
