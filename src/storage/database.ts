import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import type pgModule from 'pg';
import { chainKey } from '../agents/activity-chain.js';
import { AnchorFile, anchorPath, type AnchorStore } from './activity-anchor.js';
import { migrationProvider } from './migrations/index.js';
import type { Database, Dialect } from './schema.js';

export type { Dialect };

export interface Storage {
  db: Kysely<Database>;
  dialect: Dialect;
  /** Cheap liveness query for /readyz. */
  ping(): Promise<void>;
  /** The activity chain's HMAC key, derived from BASTION_MASTER_KEY (never stored); absent without a master key. */
  activityKey?: Buffer;
  /** The activity log's anchor outside the database (activity-anchor.ts); absent when none is configured. */
  activityAnchor?: AnchorStore;
  /** SQLite only: changes when another connection (the CLI) committed a write. */
  externalWrites?: () => number;
  close(): Promise<void>;
}

// The PostgreSQL driver is loaded when a PostgreSQL URL is opened, not at start: the embedded default (SQLite) never
// needs it (~8 MB resident).
const load = createRequire(import.meta.url);
let pgDriver: typeof pgModule | undefined;
function postgresDriver(): typeof pgModule {
  if (!pgDriver) {
    pgDriver = load('pg') as typeof pgModule;
    // int8 (COUNT, bigint columns) arrives as a string by default; our values fit in a double.
    pgDriver.types.setTypeParser(20, (v) => Number(v));
  }
  return pgDriver;
}

export function openStorage(url: string, options: { masterKey?: Buffer; anchorFile?: string } = {}): Storage {
  const storage = url.startsWith('sqlite:') ? openSqlite(url.slice('sqlite:'.length)) : openPostgres(url);
  const anchor = anchorPath(url, options.anchorFile);
  return options.masterKey ? { ...storage, activityKey: chainKey(options.masterKey), ...(anchor ? { activityAnchor: new AnchorFile(anchor) } : {}) } : storage;
}

function openSqlite(path: string): Storage {
  const file = path === ':memory:' ? path : resolve(path);
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  // WAL lets the CLI write (keys revoke) while the server reads; busy_timeout waits instead of failing.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return {
    db,
    dialect: 'sqlite',
    async ping() {
      sqlite.prepare('select 1').get();
    },
    externalWrites: (() => {
      const stmt = sqlite.prepare('PRAGMA data_version').pluck();
      return () => stmt.get() as number;
    })(),
    close: () => db.destroy(),
  };
}

function openPostgres(url: string): Storage {
  const pool = new (postgresDriver().Pool)({ connectionString: url, max: 10, connectionTimeoutMillis: 3000 });
  // An idle client that loses its server must not crash the process; the next query fails and is reported.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    dialect: 'postgres',
    async ping() {
      await pool.query('select 1');
    },
    close: () => db.destroy(),
  };
}

export async function migrate(storage: Storage): Promise<string[]> {
  const migrator = new Migrator({ db: storage.db, provider: migrationProvider(storage) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
