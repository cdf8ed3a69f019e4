import { PRIORITY, type Candidate } from './candidate.js';
import { decodeBase64 } from './checksums.js';
import { readValue, skipBlanks } from './parse.js';
import { isPlaceholderValue } from './placeholders.js';
import { isSecretValue } from './values.js';

/**
 * HTTP authorization credentials (RFC 9110 §11.6.2): `Bearer <token>` wherever it appears
 * (headers, `curl -H`, logs) and `Authorization: <scheme> <credentials>` for the other
 * schemes, Basic (RFC 7617, base64 of user:password) in particular.
 */

const TOKEN_CHAR = /[A-Za-z0-9._~+/=-]/;

/** `Bearer <token>` anywhere (headers, curl -H, logs). */
export function scanBearer(text: string, from: number, out: Candidate[]): void {
  const start = skipBlanks(text, from, 3);
  if (start === from) return;
  let end = start;
  const limit = Math.min(text.length, start + 4096);
  while (end < limit && TOKEN_CHAR.test(text[end])) end++;
  const value = text.slice(start, end);
  if (isSecretValue(value)) out.push({ type: 'bearer_token', start, end, priority: PRIORITY.header });
}

/** `Authorization: Basic <base64(user:pass)>` and other non-Bearer schemes. */
export function scanAuthorization(text: string, from: number, out: Candidate[]): void {
  let start = skipBlanks(text, from);
  if (text[start] === '"' || text[start] === "'") start++;
  const scheme = /^([A-Za-z]+)[ \t]+/.exec(text.slice(start, start + 24));
  if (!scheme) {
    const span = readValue(text, start, false, false);
    if (span && isSecretValue(text.slice(span.start, span.end))) {
      out.push({ type: 'bearer_token', start: span.start, end: span.end, priority: PRIORITY.header });
    }
    return;
  }
  const name = scheme[1].toLowerCase();
  if (name === 'bearer') return; // handled by its own keyword hit
  const tokenStart = start + scheme[0].length;
  let end = tokenStart;
  while (end < text.length && end - tokenStart < 4096 && TOKEN_CHAR.test(text[end])) end++;
  const value = text.slice(tokenStart, end);
  if (name === 'basic') {
    const decoded = decodeBase64(value);
    const colon = decoded.indexOf(':');
    if (colon > 0 && !isPlaceholderValue(decoded.slice(colon + 1))) {
      out.push({ type: 'basic_auth', start: tokenStart, end, priority: PRIORITY.header });
    }
    return;
  }
  if (isSecretValue(value)) out.push({ type: 'bearer_token', start: tokenStart, end, priority: PRIORITY.header });
}

