import { KEYWORDS } from './config.js';
import { PRIORITY, type Candidate } from './candidate.js';
import { scanAuthorization, scanBearer } from './headers.js';
import { classifyKey, type KeyClass } from './keys.js';
import { readValue, skipBlanks, type ValueSpan } from './parse.js';
import { isPlaceholderToken, isPlaceholderValue } from './placeholders.js';
import { scanLoginProse } from './prose.js';
import { isPasswordValue, isSecretValue } from './values.js';

/**
 * Keyword-anchored credentials: `password = …` in INI/TOML/.env/YAML/JSON/XML/code, CLI flags
 * (`--password x`, `--api-key=x`), HTTP headers (`X-Api-Key: …`, `Authorization: Basic …`,
 * `Bearer …`) and prose ("my password is …"). One case-insensitive keyword regex finds the
 * anchors; each hit is expanded to its identifier once and parsed by hand, so the scan stays
 * linear and free of regex backtracking.
 */

const KEYWORD_RE = /pass|pwd?|secret|token|key|credentials?|creds|auth|bearer|identified by|log ?in|sign[ -]?in/gi;
const MAX_KEY = 64;
const SPACE_SEPARATED = new Set(KEYWORDS.spaceSeparatedKeys);
function isIdentChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45 || c === 46;
}

/** `.netrc` / `_netrc`: `machine <host> login <user> password <pass>` on one line. */
function isNetrcPassword(text: string, keyStart: number, key: string): boolean {
  if (key.toLowerCase() !== 'password') return false;
  const before = text.slice(Math.max(0, keyStart - 300), keyStart);
  return /(?:^|\n)[ \t]*(?:default|machine[ \t]+\S+)[ \t]+login[ \t]+\S+[ \t]+$/.test(before);
}

/**
 * Inside an Amazon Resource Name (`arn:aws:secretsmanager:eu-west-1:123:secret:prod/db-AbC123`) `secret:` is a resource
 * type and what follows it the resource's name: an identifier, never the secret's value.
 */
function insideArn(text: string, keyStart: number): boolean {
  let p = keyStart;
  while (p > 0 && keyStart - p < 256 && !/[\s"'=,(]/.test(text[p - 1])) p--;
  return text.startsWith('arn:', p);
}

/** Cheap test run before classifying the key: is anything that could be an operator next? */
function mayAssign(text: string, keyStart: number, keyEnd: number, key: string): boolean {
  const p = afterKey(text, keyEnd);
  const q = skipBlanks(text, p);
  const c = text[q];
  if (c === '=' || c === ':' || c === '>' || c === ',') return true;
  if (q === p) return false;
  if (c === '"' || c === "'") return true;
  if (text[keyStart - 1] === '-' && text[keyStart - 2] === '-') return true;
  const lower = key.toLowerCase();
  if (SPACE_SEPARATED.has(lower) || lower === 'password') return true;
  return /^(?:is|was)[ \t]/i.test(text.slice(q, q + 4));
}

/** After the key: its closing quote, and `]` of a subscript (`os.environ["X"] = …`, `cfg['password'] = …`). */
function afterKey(text: string, keyEnd: number): number {
  let p = keyEnd;
  if (text[p] === '"' || text[p] === "'" || text[p] === '`') p++;
  if (text[p] === ']' && p > keyEnd) p++;
  return p;
}

/** Position right after the assignment operator, or -1. */
function operatorEnd(text: string, keyStart: number, keyEnd: number, key: string, cls: KeyClass): { at: number; prose: boolean } {
  const p = afterKey(text, keyEnd);
  const q = skipBlanks(text, p);
  const c = text[q];
  const next = text[q + 1];
  if ((c === ':' && next === '=') || (c === '=' && next === '>')) return { at: q + 2, prose: false };
  if (c === '=' && next !== '=') return { at: q + 1, prose: false };
  if (c === ':' && next !== ':') return { at: q + 1, prose: false };
  // `<password>value</password>`; a template slot such as `postgres://app:<password>@host` has no closing tag.
  if (c === '>' && text[keyStart - 1] === '<' && text.slice(q + 1, q + 1025).toLowerCase().includes(`</${key.toLowerCase()}`)) return { at: q + 1, prose: false };
  // define('DB_PASSWORD', 'x'), config.set("api_key", "x"), setenv("TOKEN", "x"): quoted key, comma, quoted value.
  const quotedKey = p === keyEnd + 1 && text[keyStart - 1] === text[keyEnd];
  if (c === ',' && quotedKey && /^,[ \t]{0,8}["']/.test(text.slice(q, q + 10))) return { at: q + 1, prose: false };
  // SQL: ALTER USER app WITH PASSWORD 'x'; CREATE USER app IDENTIFIED BY 'x'.
  if ((c === "'" || c === '"') && q > p && cls.family === 'password' && !quotedKey) return { at: q, prose: false };
  const flag = text[keyStart - 1] === '-' && text[keyStart - 2] === '-';
  if (q > p && (flag || SPACE_SEPARATED.has(key.toLowerCase()) || isNetrcPassword(text, keyStart, key))) return { at: q, prose: false };
  if (cls.family === 'password') {
    const word = /^(?:is|was)[ \t]/i.exec(text.slice(q, q + 4));
    if (word) return { at: q + word[0].length, prose: true };
  }
  return { at: -1, prose: false };
}

function pushValue(text: string, span: ValueSpan, cls: KeyClass, out: Candidate[]): void {
  const value = text.slice(span.start, span.end);
  if (cls.family === 'password') {
    if (isPasswordValue(value)) out.push({ type: 'password', start: span.start, end: span.end, priority: PRIORITY.password });
    return;
  }
  const keyed = cls.keyed?.find((r) => r.value.test(value));
  if (keyed && !isPlaceholderValue(value) && !isPlaceholderToken(value)) {
    out.push({ type: keyed.type, start: span.start, end: span.end, priority: PRIORITY.keyed });
    return;
  }
  if (!span.prose && isSecretValue(value)) {
    out.push({ type: cls.apiKey ? 'api_key' : 'generic_secret', start: span.start, end: span.end, priority: PRIORITY.generic });
  }
}

export function scanAssignments(text: string, out: Candidate[]): void {
  KEYWORD_RE.lastIndex = 0;
  let proseUntil = 0;
  let m: RegExpExecArray | null;
  while ((m = KEYWORD_RE.exec(text)) !== null) {
    const hit = m.index;
    const word = m[0].toLowerCase();
    if (hit >= proseUntil && /^(?:log ?in|sign[ -]?in|creds|credentials?)$/.test(word)) {
      proseUntil = scanLoginProse(text, hit, hit + m[0].length, out);
    }
    if (word === 'identified by') {
      // SQL `IDENTIFIED BY 'x'` (MySQL/Oracle CREATE/ALTER USER): the quoted literal is a password.
      const span = readValue(text, skipBlanks(text, hit + m[0].length), false, false);
      const quoted = span && /["']/.test(text[span.start - 1] ?? '');
      if (span && quoted) pushValue(text, span, { family: 'password', apiKey: false }, out);
      continue;
    }
    if (word.includes(' ')) continue;
    let ks = hit;
    while (ks > 0 && hit - ks < MAX_KEY && isIdentChar(text.charCodeAt(ks - 1))) ks--;
    let ke = hit + m[0].length;
    while (ke < text.length && ke - hit < MAX_KEY && isIdentChar(text.charCodeAt(ke))) ke++;
    KEYWORD_RE.lastIndex = Math.max(KEYWORD_RE.lastIndex, ke);
    while (ks < ke && text[ks] === '-') ks++;
    let keyEnd = ke;
    while (keyEnd > ks && (text[keyEnd - 1] === '.' || text[keyEnd - 1] === '-')) keyEnd--;
    const key = text.slice(ks, keyEnd);
    if (/^bearer$/i.test(key)) {
      scanBearer(text, keyEnd, out);
      continue;
    }
    if (!mayAssign(text, ks, keyEnd, key) || insideArn(text, ks)) continue;
    const cls = classifyKey(key);
    if (!cls) continue;
    const op = operatorEnd(text, ks, keyEnd, key, cls);
    if (op.at < 0) continue;
    if (/^(?:proxy-)?authorization$/i.test(key)) {
      scanAuthorization(text, op.at, out);
      continue;
    }
    const queryContext = text[ks - 1] === '?' || text[ks - 1] === '&';
    const span = readValue(text, op.at, op.prose, queryContext);
    if (!span) continue;
    pushValue(text, span, cls, out);
    // A keyword inside the value is part of the value: never re-read it as a new key.
    KEYWORD_RE.lastIndex = Math.max(KEYWORD_RE.lastIndex, span.end);
  }
}
