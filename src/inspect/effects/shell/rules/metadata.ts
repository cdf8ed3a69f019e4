import { isMetadataUrl, mentionsMetadataHost } from '../../metadata.js';
import { commands, finding } from '../../settings.js';
import { inlineCode } from '../read.js';
import type { CommandRule } from './emit.js';

/**
 * HTTP clients aimed at a cloud instance-metadata endpoint, and interpreter one-liners that name one
 * (ATT&CK T1552.005). Firewall rules that block the endpoint (`iptables -d 169.254.169.254 -j DROP`) are not
 * clients and pass.
 */

const CLIENTS = new Set(['http', 'https', 'xh', 'httpie', 'iwr', 'irm', 'invoke-webrequest', 'invoke-restmethod', 'lwp-request', 'GET']);

export const metadataRequests: CommandRule = (cmd, _script, emit) => {
  const client = commands.downloaders.has(cmd.name) || commands.uploaders.has(cmd.name) || CLIENTS.has(cmd.name);
  if (client && cmd.args.some(isMetadataUrl)) {
    emit(finding('cloud-metadata', 'cloud_metadata', `${cmd.name} queries the cloud instance-metadata endpoint`));
    return;
  }
  const code = commands.interpreters.has(cmd.name) ? inlineCode(cmd) : undefined;
  if (code && mentionsMetadataHost(code)) emit(finding('cloud-metadata', 'cloud_metadata', `${cmd.name} one-liner queries the instance-metadata endpoint`));
};
