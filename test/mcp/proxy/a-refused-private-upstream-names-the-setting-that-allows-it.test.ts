import t from 'tap';
import { startTestGateway } from '../../helpers/gateway.js';
import { call } from '../../helpers/http.js';
import { MASTER_KEY } from '../../helpers/portal.js';

t.test('registering a loopback server on a gateway that refuses private upstreams says which setting allows it', async (t) => {
  const gw = await startTestGateway(t, { config: { masterKey: MASTER_KEY, mcpPrivateUpstreams: false } });
  const key = await gw.key('acme');
  const reply = await call(`${gw.adminUrl}/mcp/servers/local`, { method: 'PUT', headers: { 'x-api-key': key }, body: { url: 'http://127.0.0.1:8931/mcp' } });
  t.equal(reply.status, 422);
  t.match(reply.body, /upstream URL refused: private/);
  t.match(reply.body, /BASTION_MCP_PRIVATE_UPSTREAMS=true/, 'the operator learns what to set');
});
