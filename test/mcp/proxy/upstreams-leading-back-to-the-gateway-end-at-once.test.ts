import { createServer, request as httpRequest } from 'node:http';
import t from 'tap';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { call } from '../../helpers/http.js';
import { proxyGateway } from './helpers.js';

/** A plain HTTP forwarder (a load balancer in front of the gateway): every request passed on as it came. */
async function forwarder(t: { teardown(fn: () => unknown): void }, target: string): Promise<string> {
  const to = new URL(target);
  const server = createServer((req, res) => {
    const out = httpRequest({ host: to.hostname, port: to.port, path: req.url, method: req.method, headers: { ...req.headers, host: to.host } }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  t.teardown(() => {
    server.closeAllConnections();
    return new Promise((done) => server.close(done));
  });
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

t.test("an upstream URL at the gateway's own listeners is refused at registration", async (t) => {
  const gw = await proxyGateway(t);
  const key = await gw.key('acme');
  const put = (name: string, url: string) => call(`${gw.adminUrl}/mcp/servers/${name}`, { method: 'PUT', headers: { 'x-api-key': key }, body: { url } });
  const proxyPort = gw.ports.proxy;
  for (const url of [`http://127.0.0.1:${proxyPort}/mcp/servers/other`, `http://localhost:${gw.ports.admin}/`, `http://[::ffff:127.0.0.1]:${proxyPort}/mcp/servers/x`, `http://0.0.0.0:${proxyPort}/`, `http://127.0.0.1:${proxyPort}/mcp/servers/self`]) {
    const reply = await put('self', url);
    t.equal(reply.status, 422, `${url} refused`);
    t.match(reply.body, /gateway itself/, 'the refusal says why');
  }
  const lb = await forwarder(t, gw.proxyUrl);
  t.equal((await put('elsewhere', `${lb}/mcp`)).status, 201, 'another loopback port (with private upstreams allowed) is accepted');
});

t.test('a relay loop through something in front of the gateway ends at once with a clear error', async (t) => {
  const gw = await proxyGateway(t);
  const key = await gw.key('acme', { rate: 100_000 });
  const lb = await forwarder(t, gw.proxyUrl);
  // Registered through the load balancer, the URL does not name the gateway's listeners: only the hop count stops it.
  const registered = await call(`${gw.adminUrl}/mcp/servers/loop`, { method: 'PUT', headers: { 'x-api-key': key }, body: { url: `${lb}/mcp/servers/loop`, credential: key, credential_header: 'x-api-key' } });
  t.equal(registered.status, 201);

  const client = new Client({ name: 'agent', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${gw.proxyUrl}/mcp/servers/loop`), { requestInit: { headers: { 'x-api-key': key } } });
  const outcome = await client.connect(transport, { timeout: 20_000 }).then(() => 'connected', (e: Error) => e.message);
  t.teardown(() => client.close());
  t.match(outcome, /relay loop/, `the agent is told it is a relay loop: ${outcome}`);

  const direct = await call(`${gw.proxyUrl}/mcp/servers/loop`, { method: 'POST', headers: { 'x-api-key': key, accept: 'application/json, text/event-stream', 'bastion-relay-hops': '4' }, body: { jsonrpc: '2.0', id: 1, method: 'ping' } });
  t.equal(direct.status, 508, 'a request arriving over the relay limit is refused before it is relayed');
  t.match(direct.json(), { error: { code: 'BASTION_ERR_MCP_RELAY_LOOP' } });
  const garbled = await call(`${gw.proxyUrl}/mcp/servers/loop`, { method: 'POST', headers: { 'x-api-key': key, accept: 'application/json, text/event-stream', 'bastion-relay-hops': '-1' }, body: { jsonrpc: '2.0', id: 1, method: 'ping' } });
  t.equal(garbled.status, 422, 'a hop count that is not a small number is refused');
});
