import { metadataHosts } from './cloud-settings.js';
import { hostOf } from './secret-refs.js';

/**
 * Cloud instance-metadata endpoints (config/cloud-effects.json `metadataHosts`): they answer the machine's
 * temporary cloud credentials to any local process, so a tool call that talks to them is a credential read
 * (ATT&CK T1552.005), whatever the path. Ordinary internal hosts are not metadata endpoints.
 */

const HOSTS = new Set(metadataHosts.map((h) => h.replace(/^\[|\]$/g, '')));

/** The bare host of a URL or `host[:port]/path` word, brackets and port removed. */
function bareHost(value: string): string {
  const h = hostOf(value) ?? /^\[?([0-9a-z.:-]{3,64}?)\]?(?::[0-9]{1,5})?(?:\/|$)/i.exec(value.trim())?.[1] ?? '';
  return h.replace(/^\[|\]$/g, '').replace(/:[0-9]{1,5}$/, (port) => (h.includes('.') ? '' : port)).toLowerCase();
}

export function isMetadataUrl(value: string): boolean {
  if (value.length > 2048) return false;
  return HOSTS.has(bareHost(value));
}

/** Any mention of a metadata host inside code (`requests.get("http://169.254.169.254/…")`). */
export function mentionsMetadataHost(code: string): boolean {
  const lower = code.slice(0, 16384).toLowerCase();
  for (const h of HOSTS) if (lower.includes(h)) return true;
  return false;
}
