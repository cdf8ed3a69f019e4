/**
 * Is this error the database being unreachable (down, restarting, out of connections, locked past the busy timeout),
 * rather than a bug? Such errors answer 503 STORAGE_UNAVAILABLE with Retry-After on every route, never a 500, and
 * never let a request through unchecked.
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
// PostgreSQL SQLSTATEs: admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections (class 08: connection exceptions).
const PG_CODES = new Set(['57P01', '57P02', '57P03', '53300']);
// SQLite: locked beyond busy_timeout, disk I/O failure, disk full, file cannot be opened.
const SQLITE_CODES = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN)/;
// node-postgres reports a lost or timed-out connection with plain Errors.
const PG_MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly)/;

export function isStorageUnreachable(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || PG_CODES.has(code) || code.startsWith('08') || SQLITE_CODES.test(code))) return true;
    if (typeof message === 'string' && PG_MESSAGES.test(message)) return true;
    // AggregateError (a connect to every address of a host failed) carries the reasons in `errors`.
    const errors = (e as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.some((x) => isStorageUnreachable(x))) return true;
  }
  return false;
}
