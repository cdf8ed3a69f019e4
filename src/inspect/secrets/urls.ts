import { PRIORITY, type Candidate } from './candidate.js';
import { isPlaceholderValue } from './placeholders.js';

/**
 * URLs carrying a password in their userinfo (RFC 3986 §3.2.1, deprecated precisely because
 * it leaks): `postgres://user:pass@host/db`, `mongodb+srv://…`, `redis://:pass@host`,
 * `amqp://…`, `https://user:pass@host`. The whole URL is redacted so the placeholder type
 * (`postgres_url`, `database_url`) still tells the reader what it was. URLs without a password,
 * with a template password (`USER:PASSWORD`, `${PGPASSWORD}`, `<password>`) and phishing-style
 * `https://brand.com:x@evil.tld` userinfo tricks (the "user" is a domain) are ignored.
 */

const POSTGRES = new Set(['postgres', 'postgresql', 'pgsql', 'psql']);
const DATABASES = new Set([
  'mysql', 'mysqlx', 'mariadb', 'mongodb', 'mongodb+srv', 'redis', 'rediss', 'valkey', 'amqp', 'amqps',
  'mssql', 'sqlserver', 'oracle', 'cockroachdb', 'clickhouse', 'couchdb', 'cassandra', 'neo4j', 'neo4j+s',
  'bolt', 'memcached', 'db2', 'snowflake', 'elasticsearch', 'influxdb', 'nats', 'kafka',
]);
const MAX_SCHEME = 32;
const MAX_AUTHORITY = 512;
const MAX_URL = 4096;

const SCHEME_CHAR = /[A-Za-z0-9+.-]/;
const AUTHORITY_STOP = /[\s/?#"'<>`\\]/;
const URL_STOP = /[\s"'<>`\\]/;
const DOMAIN_LIKE = /^[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,24}$/;
const HOST_LIKE = /^(?:[A-Za-z0-9_.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?(?:,[A-Za-z0-9_.:-]+)*$/;

function typeFor(scheme: string, host: string): string {
  // SQLAlchemy-style driver suffixes: postgresql+psycopg2, mysql+pymysql, mssql+pyodbc.
  const base = scheme.split('+')[0];
  if (POSTGRES.has(base)) return 'postgres_url';
  if (DATABASES.has(scheme) || DATABASES.has(base)) return 'database_url';
  if (/(?:^|\.)sentry\.io$|sentry/i.test(host.split(':')[0])) return 'sentry_dsn';
  return 'url_credentials';
}

export function scanUrlCredentials(text: string, out: Candidate[]): void {
  let pos = 0;
  let idx: number;
  while ((idx = text.indexOf('://', pos)) !== -1) {
    let schemeStart = idx;
    while (schemeStart > 0 && idx - schemeStart < MAX_SCHEME && SCHEME_CHAR.test(text[schemeStart - 1])) schemeStart--;
    const authorityStart = idx + 3;
    let authorityEnd = authorityStart;
    const limit = Math.min(text.length, authorityStart + MAX_AUTHORITY);
    while (authorityEnd < limit && !AUTHORITY_STOP.test(text[authorityEnd])) authorityEnd++;
    pos = Math.max(authorityEnd, idx + 3);
    const scheme = text.slice(schemeStart, idx).toLowerCase();
    if (!/^[a-z]/.test(scheme)) continue;
    const authority = text.slice(authorityStart, authorityEnd);
    const at = authority.lastIndexOf('@');
    if (at <= 0) continue;
    const userinfo = authority.slice(0, at);
    const colon = userinfo.indexOf(':');
    if (colon < 0) continue;
    const user = userinfo.slice(0, colon);
    const password = userinfo.slice(colon + 1);
    const host = authority.slice(at + 1);
    if (!HOST_LIKE.test(host) || host.length === 0) continue;
    if (DOMAIN_LIKE.test(user)) continue;
    if (password.length < 3 || isPlaceholderValue(password) || password === user) continue;
    let end = authorityEnd;
    const urlLimit = Math.min(text.length, authorityStart + MAX_URL);
    while (end < urlLimit && !URL_STOP.test(text[end])) end++;
    while (end > authorityEnd && /[.,;:!?)\]}]/.test(text[end - 1])) end--;
    let start = schemeStart;
    if (text.startsWith('jdbc:', start - 5)) start -= 5;
    out.push({ type: typeFor(scheme, host), start, end, priority: PRIORITY.url });
    pos = Math.max(pos, end);
  }
}
