import t from 'tap';
import { z } from 'zod';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { databaseUrl } from '../../helpers/backends.js';
import { startTestGateway } from '../../helpers/gateway.js';
import { MASTER_KEY } from '../../helpers/portal.js';
import { agent, register, startUpstreamMcp } from './helpers.js';

t.test('a loopback server registered while private upstreams were allowed, after a restart without them, is refused with that reason', async (t) => {
  const upstream = await startUpstreamMcp(t, (server) => {
    server.registerTool('status', { description: 'Reports the build status.', inputSchema: { id: z.string() } }, async () => ({ content: [{ type: 'text', text: 'green' }] }));
  });
  const url = await databaseUrl(t, 'sqlite');
  const before = await startTestGateway(t, { databaseUrl: url, config: { masterKey: MASTER_KEY, mcpPrivateUpstreams: true } });
  const key = await before.key('acme', { rate: 10_000 });
  await register(before, key, 'builds', { url: upstream.url });
  await before.close();

  const gw = await startTestGateway(t, { databaseUrl: url, config: { masterKey: MASTER_KEY, mcpPrivateUpstreams: false } });
  const err = await agent(gw, key, 'builds').catch((e: unknown) => e);
  t.ok(err instanceof McpError, 'the client gets a JSON-RPC error');
  t.equal((err as McpError).code, -32050, 'refused by the gateway, not "the upstream failed" (-32052)');
  t.match((err as McpError).message, /loopback or private/);
  t.match((err as McpError).message, /BASTION_MCP_PRIVATE_UPSTREAMS=true/, 'the setting that allows it is named');
  t.notMatch((err as McpError).message, /could not be reached/);
  t.same(upstream.seen, [], 'nothing was sent to the server');
});
