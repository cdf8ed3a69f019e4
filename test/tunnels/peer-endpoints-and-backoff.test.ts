import t from 'tap';
import { allowListOf, endpointRefusal, addressRefusal } from '../../src/tunnels/endpoint-policy.js';
import { PeerBackoff } from '../../src/tunnels/peer-backoff.js';
import { handshake, platform, register } from './helpers.js';

t.setTimeout(300_000);

t.test('peer endpoints: https outside loopback, never metadata or link-local, private only when allow-listed', async (t) => {
  const none = allowListOf([]);
  const allow = allowListOf(['10.20.0.0/16', 'peer.internal']);
  t.equal(endpointRefusal('http://127.0.0.1:8081', none), undefined, 'loopback over http: allowed');
  t.equal(endpointRefusal('https://peer.example.com', none), undefined, 'a public https host');
  t.match(endpointRefusal('http://peer.example.com', none), /https/, 'http outside loopback');
  for (const u of ['https://169.254.169.254/latest', 'https://[fe80::1]/', 'https://100.100.100.200/', 'https://[fd00:ec2::254]/', 'https://metadata.google.internal/', 'https://[::ffff:169.254.169.254]/']) {
    t.ok(endpointRefusal(u, allow), `${u} refused even with an allow-list`);
  }
  t.match(endpointRefusal('https://10.20.1.2/', none), /private/, 'a private address without the allow-list');
  t.equal(endpointRefusal('https://10.20.1.2/', allow), undefined, 'allowed when the operator lists its range');
  t.match(endpointRefusal('https://192.168.1.1/', allow), /private/, 'other private ranges stay refused');
  t.match(addressRefusal('169.254.169.254', allow), /metadata/, 'a host name resolving to the metadata address is refused at send time');
  t.match(addressRefusal('10.9.9.9', allow), /private/);
});

t.test('a tenant cannot point a tunnel at the metadata service', async (t) => {
  const a = await platform(t, 'sqlite', 'acme');
  const b = await platform(t, 'sqlite', 'globex');
  await register(a, 'Acme');
  await register(b, 'Globex');
  const init = await a.api('POST', '/tunnels/handshake/init', { endpoint: 'https://169.254.169.254/latest', ttl_seconds: 3600 });
  const accept = await b.api('POST', '/tunnels/handshake/accept', { manifest: init.json(), endpoint: b.gw.adminUrl });
  t.equal(accept.status, 400, accept.body);
  t.match(accept.json(), { error: { code: 'BASTION_ERR_TUNNEL_ENDPOINT_REFUSED' } });
  const ok = await handshake(a, b);
  t.equal(ok.complete!.status, 200, 'loopback peers still work');
});

t.test('a peer that fails is left alone for a growing pause; success forgets it', async (t) => {
  const b = new PeerBackoff(1000, 8000);
  t.equal(b.waitFor('https://p', 0), 0);
  t.equal(b.failed('https://p', 0), 1000);
  t.equal(b.waitFor('https://p', 500), 500);
  t.equal(b.failed('https://p', 1000), 2000);
  for (let i = 0; i < 10; i++) b.failed('https://p', 0);
  t.equal(b.waitFor('https://p', 0), 8000, 'capped');
  t.equal(b.waitFor('https://q', 0), 0, 'other peers are not held back');
  b.succeeded('https://p');
  t.equal(b.waitFor('https://p', 0), 0);
});
