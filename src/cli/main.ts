import { ConfigError, loadConfig } from '../config/load.js';
import { StartupError } from '../startup-error.js';
import { UsageError } from './usage-error.js';

// Each command's module is imported when it runs: `bastion keys create` or `bastion mcp wrap` loads what it needs,
// not the whole gateway (a short command used to spend ~2.5 s of CPU importing every command's dependencies).
const USAGE = `Usage: bastion <command>
  serve                                        start both listeners
  quickstart                                   create a first key if none exists, print it, then serve
  migrate                                      apply storage migrations
  keys create --tenant ID [--name N] [--rate N] [--create-tenant]
                                               create an API key (printed once; lost it? create another
                                               and revoke the old one); the tenant must exist unless
                                               --create-tenant
  keys list [--tenant ID]                      list keys (prefixes only)
  keys revoke KEY_ID                           revoke a key everywhere
  tenants create ID [--plan P]                 create a tenant
  accounts create --tenant ID --email E [--name N]
                                               a console account for an existing tenant (e.g. default);
                                               password from BASTION_ACCOUNT_PASSWORD or standard input
  tenants policy ID [--set k=v]… [--unset k]… [--show]
                                               show or change a tenant's detection policy (JSON)
  agents verify-log --tenant ID                 re-hash a tenant's agent activity chain; exit 1 at the
                                               first broken link
  mcp servers --tenant ID                      a tenant's upstream MCP servers (JSON)
  mcp tools --tenant ID --server NAME [--pending]
                                               pinned tools; --pending: changes waiting, with their diff
  mcp approve --tenant ID --server NAME --tool TOOL --hash HASH
                                               approve the pending tool version with that hash
  mcp wrap --server NAME [--gateway URL] -- COMMAND [ARGS…]
                                               run a stdio MCP server, judged by the gateway
                                               (BASTION_GATEWAY_URL, BASTION_API_KEY)
  flows approvals list --tenant ID [--status S] [--limit N]
                                               agent flow decisions (default: calls waiting for approval)
  flows approvals show ID --tenant ID          one decision in plain words, with where a withheld call's
                                               data would go (needs BASTION_MASTER_KEY, or npm start's
                                               data/master.key)
  flows approvals approve|deny ID --tenant ID  release the withheld call once on its retry, or refuse it
  rules list [--tenant ID] [--status S] [--limit N]
                                               evolved rules (JSON); --tenant: those in force for a tenant,
                                               with their origin, hits and its false-positive reports
  rules show|disable|enable RULE_ID [--tenant ID]
                                               one rule; take it out of force or put it back (--tenant: only
                                               that tenant's own rules)
  models pull REPO [--revision R] [--onnx FILE]
                                               download a model folder from the Hugging Face hub
                                               (HF_ENDPOINT, HF_TOKEN) into BASTION_MODEL_DIR, verified
  models list                                  model folders under BASTION_MODEL_DIR
  models check [MODEL] [--label L] [--threshold T]
                                               load a model, run a probe, print labels and latency
  config-table                                 print the configuration table (Markdown)`;

/** Returns the process exit code. Errors are printed as one clear line, never with request content. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'serve':
        return await (await import('./serve.js')).serveCommand(loadConfig());
      case 'quickstart':
        return await (await import('./serve.js')).quickstartCommand(loadConfig());
      case 'migrate':
        return await (await import('./migrate.js')).migrateCommand(loadConfig());
      case 'keys':
        return await (await import('./keys.js')).keysCommand(loadConfig(), rest);
      case 'tenants':
        return await (await import('./tenants.js')).tenantsCommand(loadConfig(), rest);
      case 'accounts':
        return await (await import('./accounts.js')).accountsCommand(loadConfig(), rest);
      case 'agents':
        return await (await import('./agents.js')).agentsCommand(loadConfig(), rest);
      case 'mcp':
        // The wrapper is a client of a gateway: it reads none of the gateway's own settings.
        if (rest[0] === 'wrap') return await (await import('./mcp-wrap.js')).mcpWrapCommand(rest.slice(1));
        return await (await import('./mcp.js')).mcpCommand(loadConfig(), rest);
      case 'flows':
        return await (await import('./flows.js')).flowsCommand(loadConfig(), rest);
      case 'models':
        return await (await import('./models.js')).modelsCommand(loadConfig(), rest);
      case 'rules':
        return await (await import('./rules.js')).rulesCommand(loadConfig(), rest);
      case 'config-table':
        process.stdout.write((await import('./config-table.js')).configTable());
        return 0;
      default:
        process.stderr.write(USAGE + '\n');
        return command === undefined || command === 'help' || command === '--help' ? 0 : 2;
    }
  } catch (err) {
    if (err instanceof ConfigError || err instanceof StartupError || err instanceof UsageError) {
      process.stderr.write(`bastion: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
}

