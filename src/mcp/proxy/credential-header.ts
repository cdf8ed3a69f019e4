import config from '../../../config/mcp-credential-headers.json' with { type: 'json' };
import { BastionError } from '../../errors.js';
import type { McpServerRow } from '../../storage/mcp-servers.js';

const REFUSED = new Set(config.refused);

/**
 * Whether a header name may carry an upstream server's credential (config/mcp-credential-headers.json says which may
 * not, and why): never one that frames, routes or is consumed hop by hop, nor an MCP transport or Bastion header, so
 * a credential can never rewrite the gateway's own request. Checked at registration and again before each relay (a
 * server registered before the check).
 */
export function credentialHeaderFit(name: string): boolean {
  const lower = name.toLowerCase();
  return /^[a-z0-9-]{1,64}$/.test(lower) && !REFUSED.has(lower) && !config.refusedPrefixes.some((p) => lower.startsWith(p));
}

/** The header a server's credential is sent under; a stored name that is not fit refuses the relay (409). */
export function credentialHeaderOf(server: McpServerRow): string {
  const name = server.credential_header ?? 'authorization';
  if (!credentialHeaderFit(name)) throw new BastionError('MCP_CREDENTIAL_HEADER_REFUSED');
  return name.toLowerCase();
}
