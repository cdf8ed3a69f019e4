import { randomBytes } from 'node:crypto';
import type { Config } from '../config/schema.js';
import { keptSecret } from './quickstart-kept-secret.js';

/** The file beside the embedded database that holds the quickstart's admin key (X-Admin-Key). */
export const ADMIN_KEY_FILE = 'admin.key';

/**
 * `npm start` without BASTION_ADMIN_KEY: an admin key kept beside the embedded database (owner-only, 0600), so the
 * operator routes the docs name (`/admin/rules`, `/admin/billing/grant`, …) answer on a fresh clone instead of 503.
 * Created once from 32 random bytes (base64url), reused on every later start; the start-up text says where it is
 * and how to send it, never the key itself. A deployment that sets BASTION_ADMIN_KEY keeps its own.
 */
export function quickstartAdminKey(config: Config): { key: string; file: string; created: boolean } | undefined {
  if (config.adminKey) return undefined;
  const kept = keptSecret(config, ADMIN_KEY_FILE, () => randomBytes(32).toString('base64url'), (key, file) => {
    if (!/^[A-Za-z0-9_-]{24,512}$/.test(key)) throw new Error(`${file} does not hold an admin key (24 to 512 URL-safe characters): delete it to get a new one, or set BASTION_ADMIN_KEY`);
  });
  return kept && { key: kept.value, file: kept.file, created: kept.created };
}
