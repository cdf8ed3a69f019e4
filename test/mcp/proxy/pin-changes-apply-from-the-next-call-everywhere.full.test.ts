import t from 'tap';
import { z } from 'zod';
import type { RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { openStorage } from '../../../src/storage/database.js';
import { approvePending } from '../../../src/storage/mcp-pins.js';
import { needs, postgresUrl, redisPrefix, sqliteUrl } from '../../helpers/backends.js';
import { startTestGateway } from '../../helpers/gateway.js';
import { call } from '../../helpers/http.js';
import { MASTER_KEY } from '../../helpers/portal.js';
import { agent, register, startUpstreamMcp } from './helpers.js';

// The registry (servers, pins) is cached for this long: only the invalidation can make these tests pass.
const config = { masterKey: MASTER_KEY, mcpPrivateUpstreams: true, policyCacheTtlMs: 600_000 };
const refusalOf = (err: unknown) => (err instanceof McpError ? (err.data as { bastion?: { reason?: string } }).bastion?.reason : String(err));

async function echoUpstream(t: { teardown(fn: () => unknown): void }) {
  const registered: RegisteredTool[] = [];
  let description = 'Echoes the text.';
  const upstream = await startUpstreamMcp(t, (server) => {
    registered.push(server.registerTool('echo', { description, inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text }] })));
  });
  // Sessions open from now on see the new description too.
  const change = (changed: string) => {
    description = changed;
    registered.forEach((r) => r.update({ description }));
  };
  return { upstream, change };
}

t.test('a rug pull seen on one replica is refused on the other at once, and its approval applies there too', await needs('postgres'), async (t) => {
  const redis = await needs('redis');
  if (redis.skip) return void t.comment(redis.skip);
  const shared = { databaseUrl: await postgresUrl(t), redis: true, redisPrefix: redisPrefix(), config };
  const a = await startTestGateway(t, shared);
  const b = await startTestGateway(t, shared);
  const key = await a.key('acme', { rate: 10_000 });
  const { upstream, change } = await echoUpstream(t);
  await register(a, key, 'text', { url: upstream.url });

  const onA = (await agent(a, key, 'text')).client;
  t.teardown(() => onA.close());
  await onA.listTools();
  t.same((await onA.callTool({ name: 'echo', arguments: { text: 'hi' } })).content, [{ type: 'text', text: 'hi' }], 'replica A serves the pinned tool');

  change('Echoes the given text back.');
  const onB = (await agent(b, key, 'text')).client;
  t.teardown(() => onB.close());
  t.same((await onB.listTools()).tools, [], 'replica B sees the change and withholds the tool');
  t.equal(refusalOf(await onA.callTool({ name: 'echo', arguments: { text: 'hi' } }).catch((e: unknown) => e)), 'tool_pending_approval', 'replica A refuses it from its next call');

  const pins = (await call(`${b.adminUrl}/mcp/servers/text/tools`, { headers: { 'x-api-key': key } })).json<{ tool: string; pending_hash: string }[]>();
  const approved = await call(`${b.adminUrl}/mcp/servers/text/tools/echo/approve`, { headers: { 'x-api-key': key }, body: { hash: pins[0].pending_hash } });
  t.equal(approved.status, 200);
  t.same((await onA.callTool({ name: 'echo', arguments: { text: 'back' } })).content, [{ type: 'text', text: 'back' }], 'the approval on B releases the tool on A');
});

t.test('an approval written by another process (the CLI) on the same SQLite file applies from the next call', async (t) => {
  const databaseUrl = sqliteUrl(t);
  const gw = await startTestGateway(t, { databaseUrl, config });
  const key = await gw.key('acme', { rate: 10_000 });
  const { upstream, change } = await echoUpstream(t);
  await register(gw, key, 'text', { url: upstream.url });
  const { client } = await agent(gw, key, 'text');
  t.teardown(() => client.close());
  await client.listTools();

  change('Echoes the given text back.');
  t.same((await client.listTools()).tools, [], 'the changed tool is withheld');
  t.equal(refusalOf(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }).catch((e: unknown) => e)), 'tool_pending_approval');

  const pins = (await call(`${gw.adminUrl}/mcp/servers/text/tools`, { headers: { 'x-api-key': key } })).json<{ pending_hash: string }[]>();
  const cli = openStorage(databaseUrl);
  t.ok(await approvePending(cli.db, 'acme', 'text', 'echo', pins[0].pending_hash));
  await cli.close();
  t.same((await client.callTool({ name: 'echo', arguments: { text: 'back' } })).content, [{ type: 'text', text: 'back' }], 'the gateway reads the approval without waiting for its cache to expire');
});
