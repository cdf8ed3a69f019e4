import { exfilHosts, secretNameWords } from './settings.js';

/**
 * Secret references and destinations. A tool call rarely carries a secret's value: it names it (`$AWS_SECRET_ACCESS_KEY`,
 * `${GITHUB_TOKEN}`, `{{ENV.OPENAI_API_KEY}}`, `process.env.X`, `os.environ['X']`, `%X%`, `$env:X`) and the executor
 * substitutes it. Sending such a reference to an external host exfiltrates the value.
 */

const WORDS = new Set(secretNameWords.map((w) => w.toUpperCase()));
const STRONG = /SECRET|TOKEN|PASSWORD|PASSWD|APIKEY|API_KEY|CREDENTIAL|PRIVATE_KEY|ACCESS_KEY/;

export function isSecretName(name: string): boolean {
  const upper = name.toUpperCase();
  if (STRONG.test(upper)) return true;
  return upper.split(/[_.-]/).some((part) => WORDS.has(part));
}

// Each alternative captures the variable name; every repetition is bounded (linear on attacker input).
const REFERENCE =
  /\$\{?([A-Za-z_][A-Za-z0-9_]{0,63})|\{\{\s{0,4}(?:\$?env(?:ironment)?[.:]\s{0,2})?([A-Za-z_][A-Za-z0-9_.]{0,63})\s{0,4}\}\}|process\.env(?:\.|\[\s{0,2}["'])([A-Za-z_][A-Za-z0-9_]{0,63})|(?:os\.environ(?:\.get\(|\[)|os\.getenv\(|getenv\(|ENV\[)\s{0,2}["']([A-Za-z_][A-Za-z0-9_]{0,63})|%([A-Za-z_][A-Za-z0-9_]{0,63})%|\$env:([A-Za-z_][A-Za-z0-9_]{0,63})/g;

/** True when `text` references a variable whose name says it holds a credential. */
export function mentionsSecret(text: string): boolean {
  const head = text.length > 16384 ? text.slice(0, 16384) : text;
  if (!/[$%{]|env|getenv/i.test(head)) return false;
  for (const m of head.matchAll(REFERENCE)) {
    const name = m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? m[6] ?? '';
    const last = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : name;
    if (isSecretName(last)) return true;
  }
  return false;
}

/** Host of a URL-ish argument (`https://h/…`, `//h`, `h:443/…`), lower-cased; undefined when it is not one. */
export function hostOf(value: string): string | undefined {
  const m = /^(?:[a-z][a-z0-9+.-]{0,15}:)?\/\/(?:[^@/\s]{0,128}@)?(\[[0-9a-f:.]{2,45}\]|[^/:?#\s]{1,253})/i.exec(value.trim());
  return m ? m[1].toLowerCase() : undefined;
}

const LOOPBACK = /^(localhost|.*\.localhost|127(\.[0-9]{1,3}){3}|\[?::1\]?|0\.0\.0\.0|host\.docker\.internal)$/;

/** Anything but loopback and single-label service names (`db`, `api`) counts as external. */
export function isExternalHost(hostOrUrl: string): boolean {
  const host = hostOf(hostOrUrl) ?? hostOrUrl.toLowerCase();
  if (LOOPBACK.test(host)) return false;
  return host.includes('.') || host.includes(':');
}

/** Request-capture, tunnel and anonymous file-drop services (config/tool-effects.json `hosts.exfil`). */
export function isExfilHost(hostOrUrl: string): boolean {
  const lower = hostOrUrl.toLowerCase();
  const host = hostOf(lower) ?? lower.split('/')[0];
  for (const entry of exfilHosts) {
    if (entry.includes('/')) {
      if (lower.includes(entry)) return true;
    } else if (host === entry || host.endsWith(`.${entry}`)) return true;
  }
  return false;
}
