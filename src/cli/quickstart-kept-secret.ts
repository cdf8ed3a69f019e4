import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Config } from '../config/schema.js';

/**
 * A secret the quickstart keeps beside its embedded database, as the database itself is kept: created once by
 * `make`, owner-only (0600) in an owner-only directory, reused on every later start (its mode repaired if a copy or
 * an umask widened it). Undefined without an SQLite database file (PostgreSQL deployments set their own secrets).
 */
export function keptSecret(config: Config, name: string, make: () => string, check: (text: string, file: string) => void): { value: string; file: string; created: boolean } | undefined {
  const file = keptSecretFile(config, name);
  if (!file) return undefined;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  let created = false;
  try {
    writeFileSync(file, `${make()}\n`, { mode: 0o600, flag: 'wx' });
    created = true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  }
  const value = readFileSync(file, 'utf8').trim();
  check(value, file);
  return { value, file, created };
}

/**
 * A secret an earlier `npm start` kept beside this embedded database, for a command run on the same data (never
 * created here): undefined when there is no such file, or no SQLite database file.
 */
export function existingKeptSecret(config: Config, name: string, check: (text: string, file: string) => void): { value: string; file: string } | undefined {
  const file = keptSecretFile(config, name);
  if (!file || !existsSync(file)) return undefined;
  const value = readFileSync(file, 'utf8').trim();
  check(value, file);
  return { value, file };
}

function keptSecretFile(config: Config, name: string): string | undefined {
  if (!config.databaseUrl.startsWith('sqlite:')) return undefined;
  const path = config.databaseUrl.slice('sqlite:'.length);
  if (path === ':memory:') return undefined;
  return join(dirname(resolve(path)), name);
}
