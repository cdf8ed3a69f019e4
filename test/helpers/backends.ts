import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';

/**
 * Real backends for tests: a fresh SQLite file, a fresh PostgreSQL database on the machine's server, and a
 * unique Redis key prefix. Outside CI a missing PostgreSQL/Redis skips those tests with a message; in CI
 * (CI=true) it fails them, so scale-out coverage can never silently disappear.
 */
export const PG_ADMIN_URL = process.env.BASTION_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.BASTION_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';

interface Teardown {
  teardown(fn: () => unknown): void;
}

export function sqliteUrl(t: Teardown): string {
  const dir = mkdtempSync(join(tmpdir(), 'bastion-test-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return `sqlite:${join(dir, 'bastion.db')}`;
}

export async function postgresUrl(t: Teardown): Promise<string> {
  const name = `bastion_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  t.teardown(async () => {
    const c = new pg.Client({ connectionString: PG_ADMIN_URL });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  });
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export function redisPrefix(): string {
  return `bastion-test:${randomBytes(6).toString('hex')}:`;
}

/** Whether the server answers; a busy machine may take a while to accept, so a refused or slow probe is tried again. */
export async function available(kind: 'postgres' | 'redis'): Promise<boolean> {
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await answers(kind)) return true;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return false;
}

async function answers(kind: 'postgres' | 'redis'): Promise<boolean> {
  try {
    if (kind === 'postgres') {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 5000 });
      await c.connect();
      await c.end();
    } else {
      const r = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 5000, maxRetriesPerRequest: 0, retryStrategy: () => null });
      r.on('error', () => {});
      await r.connect();
      await r.quit();
    }
    return true;
  } catch {
    return false;
  }
}

/** `{ skip: reason }` options for t.test when a backend is missing outside CI. */
export async function needs(kind: 'postgres' | 'redis'): Promise<{ skip?: string }> {
  if (await available(kind)) return {};
  if (process.env.CI) throw new Error(`${kind} is required in CI but unreachable`);
  return { skip: `${kind} not reachable on 127.0.0.1 (start it: see DEVELOPERS.md)` };
}

export type StorageBackend = 'sqlite' | 'postgres';

export async function databaseUrl(t: Teardown, backend: StorageBackend): Promise<string> {
  return backend === 'sqlite' ? sqliteUrl(t) : postgresUrl(t);
}
