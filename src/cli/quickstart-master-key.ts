import { randomBytes } from 'node:crypto';
import type { Config } from '../config/schema.js';
import { existingKeptSecret, keptSecret } from './quickstart-kept-secret.js';

/** The file beside the embedded database that holds the quickstart's master key (64 hex characters). */
export const MASTER_KEY_FILE = 'master.key';

/**
 * `npm start` on the embedded database without BASTION_MASTER_KEY: a master key kept beside the database, as the
 * database itself is kept, so that what Bastion seals (MCP upstream credentials, TOTP secrets, the L402 root key)
 * works on a fresh clone. Created once from 32 random bytes, owner-only (0600) in an owner-only directory, reused on
 * every later start; never printed or logged. A PostgreSQL deployment (several replicas) sets its own key instead.
 * Returns the key and whether this start created it, or undefined when the quickstart keeps none.
 */
export function quickstartMasterKey(config: Config): { key: Buffer; file: string; created: boolean } | undefined {
  if (config.masterKey) return undefined;
  const kept = keptSecret(config, MASTER_KEY_FILE, () => randomBytes(32).toString('hex'), checkMasterKey);
  return kept && { key: Buffer.from(kept.value, 'hex'), file: kept.file, created: kept.created };
}

/**
 * The master key for a command run on `npm start`'s data: BASTION_MASTER_KEY, else the one the quickstart keeps
 * beside the embedded database (read, never created), else none.
 */
export function masterKeyOf(config: Config): Buffer | undefined {
  if (config.masterKey) return config.masterKey;
  const kept = existingKeptSecret(config, MASTER_KEY_FILE, checkMasterKey);
  return kept && Buffer.from(kept.value, 'hex');
}

function checkMasterKey(hex: string, file: string): void {
  if (!/^[0-9a-f]{64}$/i.test(hex)) throw new Error(`${file} does not hold a master key (64 hex characters): restore it from your backup or set BASTION_MASTER_KEY`);
}
