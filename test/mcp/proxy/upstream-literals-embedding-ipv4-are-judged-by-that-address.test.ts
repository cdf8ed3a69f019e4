import t from 'tap';
import { resolvedAddressRefusal } from '../../../src/mcp/proxy/upstream-lookup.js';
import { startTestGateway } from '../../helpers/gateway.js';
import { call } from '../../helpers/http.js';
import { MASTER_KEY } from '../../helpers/portal.js';
import { LOOPBACK, METADATA } from './ipv4-carrying-literals.js';

// An IPv6 address that carries an IPv4 address is judged by that address when a server is registered (and when
// connecting: upstream-names-resolving-to-private-addresses-are-refused.test.ts).
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

t.test('resolved addresses are judged by the IPv4 address they carry too', async (t) => {
  t.equal(resolvedAddressRefusal('64:ff9b::a9fe:a9fe', true), 'link_local');
  t.equal(resolvedAddressRefusal('2002:a9fe:a9fe::1', true), 'link_local');
  t.equal(resolvedAddressRefusal('::7f00:1', false), 'private');
  t.equal(resolvedAddressRefusal('64:ff9b::5db8:d822', false), undefined);
});
