import { PLACEHOLDERS } from './config.js';
import { longestAscending, longestRun } from './entropy.js';

/**
 * Values that look like credentials but are documentation, templates, redactions or
 * references to where the real secret lives. Being quiet on these is what keeps the
 * redactor usable on READMEs, `.env.example` files and already-scrubbed logs.
 */

const MARKERS = PLACEHOLDERS.markers.map((m) => m.toLowerCase());
/** Inside random token bodies only markers of four or more characters are safe: shorter ones occur by chance. */
const TOKEN_MARKERS = MARKERS.filter((m) => m.length >= 4 || /[^a-z]/.test(m));
const VALUES = new Set(PLACEHOLDERS.values.map((v) => v.toLowerCase()));

/**
 * References to a secret rather than the secret: `$VAR`, `${VAR}`, `%VAR%`, `process.env.X`,
 * `os.environ[...]`, `os.getenv(...)`, `ENV['X']`, `secrets.X` (GitHub Actions), Vault/SSM URIs.
 */
const ENV_REFERENCE =
  /^(?:\$\{?[A-Za-z_]|\$\(|%[A-Za-z_][A-Za-z0-9_]*%|process\.env|import\.meta\.env|os\.environ|os\.getenv|getenv\(|System\.getenv|Deno\.env|ENV\[|env\(|env\.|secrets\.|vault:|ssm:|arn:aws:secretsmanager|\{\{)/;

export function isEnvReference(value: string): boolean {
  return ENV_REFERENCE.test(value);
}

/** A value made only of mask characters (`****`, `xxxx`, `••••`, `####`, `....`). */
function isMask(value: string): boolean {
  return /^[*xX•#._-]{3,}$/.test(value) && !/^[._-]+$/.test(value);
}

/** An upper-case constant name such as `YOUR_API_KEY`, `DBNAME` or `PASSWORD`: a template slot. */
function isConstantName(value: string): boolean {
  return /^[A-Z][A-Z_]*$/.test(value) && (value.includes('_') || VALUES.has(value.toLowerCase()) || value.length <= 8);
}

/** Keyword-anchored values: passwords, generic secrets, URL passwords. */
export function isPlaceholderValue(raw: string): boolean {
  const value = raw.trim();
  if (value.length === 0) return true;
  const lower = value.toLowerCase();
  if (VALUES.has(lower)) return true;
  if (isMask(value) || isConstantName(value) || isEnvReference(value)) return true;
  for (const m of MARKERS) if (lower.includes(m)) return true;
  if (value.length >= 6 && longestRun(value) * 2 > value.length) return true;
  return false;
}

/**
 * The random part of a prefixed token (`sk_live_<body>`): filler such as `xxxxxxxx`,
 * `EXAMPLE`, `0000000`, `1234567890` or a marker word means documentation.
 */
export function isPlaceholderToken(body: string): boolean {
  const lower = body.toLowerCase();
  for (const m of TOKEN_MARKERS) if (lower.includes(m)) return true;
  if (longestRun(body) >= 6) return true;
  if (longestAscending(body) >= 8) return true;
  return false;
}
