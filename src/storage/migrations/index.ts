import type { Migration, MigrationProvider } from 'kysely';
import type { Dialect } from '../schema.js';
import * as foundation from './0001-foundation.js';
import * as portal from './0002-portal.js';
import * as evolution from './0003-evolution.js';
import * as tenantPolicies from './0004-tenant-policies.js';
import * as evolutionScope from './0005-evolution-scope.js';
import * as agents from './0006-agents.js';
import * as payments from './0007-payments.js';
import * as syndicates from './0008-syndicates.js';
import { agentIdentity } from './0010-agent-identity.js';
import * as mcpProxy from './0011-mcp-proxy.js';
import * as flowPolicies from './0012-flow-policies.js';
import * as flowStateParts from './0013-flow-state-parts.js';
import * as flowDestinations from './0014-flow-destinations.js';

/** Versioned migrations, one set for SQLite and PostgreSQL. Names sort in apply order. */
const STATIC_MIGRATIONS: Record<string, Migration> = {
  '0001-foundation': foundation,
  '0002-portal': portal,
  '0003-evolution': evolution,
  '0004-tenant-policies': tenantPolicies,
  '0005-evolution-scope': evolutionScope,
  '0006-agents': agents,
  '0007-payments': payments,
  '0008-syndicates': syndicates,
};

/** 0010 seals existing activity chains, so it needs the dialect and the chain key of the storage it migrates. */
export function migrationProvider(storage: { dialect: Dialect; activityKey?: Buffer }): MigrationProvider {
  return {
    async getMigrations() {
      return { ...STATIC_MIGRATIONS, '0010-agent-identity': agentIdentity(storage), '0011-mcp-proxy': mcpProxy, '0012-flow-policies': flowPolicies, '0013-flow-state-parts': flowStateParts, '0014-flow-destinations': flowDestinations };
    },
  };
}
