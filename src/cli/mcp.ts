import { wirePin, wireServer } from '../admin/mcp-servers/routes.js';
import type { Config } from '../config/schema.js';
import { MCP_REGISTRY_CHANGED } from '../mcp/proxy/registry-cache.js';
import { approvePending, listPins } from '../storage/mcp-pins.js';
import { findMcpServer, listMcpServers } from '../storage/mcp-servers.js';
import { migrate, openStorage } from '../storage/database.js';
import { TENANT_ID, parse } from './args.js';
import { announceTenantChange } from './announce.js';
import { UsageError } from './usage-error.js';

export const MCP_USAGE = 'mcp servers --tenant ID | mcp tools --tenant ID --server NAME [--pending] | mcp approve --tenant ID --server NAME --tool TOOL --hash HASH';

/**
 * `bastion mcp …`: the MCP proxy's registry from the command line (the operator's view of any tenant). Lists a
 * tenant's servers, a server's pinned tools (with `--pending`, only the changes waiting, each with its diff), and
 * approves the pending version whose hash was reviewed. Prints JSON.
 */
export async function mcpCommand(config: Config, argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  const { values } = parse(rest, { tenant: { type: 'string' }, server: { type: 'string' }, tool: { type: 'string' }, hash: { type: 'string' }, pending: { type: 'boolean' } });
  const tenant = values.tenant as string | undefined;
  if (!tenant || !TENANT_ID.test(tenant)) throw new UsageError(MCP_USAGE);
  const storage = openStorage(config.databaseUrl, { masterKey: config.masterKey });
  const print = (value: unknown) => process.stdout.write(JSON.stringify(value, null, 2) + '\n');
  try {
    await migrate(storage);
    if (sub === 'servers') {
      print((await listMcpServers(storage.db, tenant)).map(wireServer));
      return 0;
    }
    const server = values.server as string | undefined;
    if (!server || !(await findMcpServer(storage.db, tenant, server))) throw new UsageError(server ? `no MCP server ${server} for tenant ${tenant}` : MCP_USAGE);
    if (sub === 'tools') {
      const pins = (await listPins(storage.db, tenant, server)).map((pin) => wirePin(pin));
      print(values.pending ? pins.filter((p) => p.status !== 'approved') : pins);
      return 0;
    }
    if (sub === 'approve') {
      const tool = values.tool as string | undefined;
      const hash = values.hash as string | undefined;
      if (!tool || !hash || !/^[0-9a-f]{64}$/.test(hash)) throw new UsageError(MCP_USAGE);
      if (!(await approvePending(storage.db, tenant, server, tool, hash))) {
        process.stderr.write(`bastion: ${tool} has no pending version ${hash.slice(0, 12)}…: list the pending changes again\n`);
        return 1;
      }
      await announceTenantChange(config, MCP_REGISTRY_CHANGED, tenant, 'approval');
      print(wirePin((await listPins(storage.db, tenant, server)).find((p) => p.tool_name === tool)!));
      return 0;
    }
    throw new UsageError(MCP_USAGE);
  } finally {
    await storage.close();
  }
}
