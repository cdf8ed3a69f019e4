import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Config } from '../config/schema.js';

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
  if (config.masterKey || !config.databaseUrl.startsWith('sqlite:')) return undefined;
  const path = config.databaseUrl.slice('sqlite:'.length);
  if (path === ':memory:') return undefined;
  const file = join(dirname(resolve(path)), MASTER_KEY_FILE);
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  try {
    writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    return { key: read(file), file, created: true };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  // Kept from an earlier start: readable by its owner only, whatever a copy or an umask made of it.
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  return { key: read(file), file, created: false };
}

function read(file: string): Buffer {
  const hex = readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-f]{64}$/i.test(hex)) throw new Error(`${file} does not hold a master key (64 hex characters): restore it from your backup or set BASTION_MASTER_KEY`);
  return Buffer.from(hex, 'hex');
}
