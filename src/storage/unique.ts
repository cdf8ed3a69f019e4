/** True when a write failed on a UNIQUE or PRIMARY KEY constraint (SQLite or PostgreSQL). */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  // pg: SQLSTATE 23505 unique_violation; better-sqlite3: SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY.
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
