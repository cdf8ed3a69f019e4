import { PRIORITY, type Candidate } from './candidate.js';
import { isPasswordValue } from './values.js';

/**
 * Credentials written as prose after a login word: "login for the admin panel is
 * deploy / S3cure-pass", "creds: admin:Winter-2024!". Only the rest of the line within a
 * short window is read, and the password must pass the same checks as `password = …`.
 */

const WINDOW = 100;
const BACK_WINDOW = 60;
/** `user / pass` or `user:pass`; no path or URL around the separator. */
const PAIR = /(?<![\w/.@:-])([A-Za-z0-9._@+-]{2,64})(?:[ \t]?\/[ \t]?|:)(?![/\s])(\S{6,128})/g;
/** Values that are the second half of a date, path or ratio rather than a password. */
const NOT_PASSWORD = /^\d{1,4}(?:[/.-]\d{1,4})*$/;

/** The login word must stand alone: not inside a URL, path or identifier (`login.example.com`). */
function standsAlone(text: string, start: number, end: number): boolean {
  return !/[\w./@-]/.test(text[start - 1] ?? ' ') && !/[\w./@-]/.test(text[end] ?? ' ');
}

/** Returns where the scanned window ended, so hits inside it need not be rescanned. */
/** "portal.corp.io/app2024", "config/secrets2.yml": a host or path, not user / password. */
function looksLikePath(pair: string, user: string, value: string): boolean {
  if (/\.[A-Za-z]{2,24}$/.test(user) || value.includes('/') || /\.[A-Za-z][A-Za-z0-9]{0,4}$/.test(value)) return true;
  const tightSlash = pair.charAt(user.length) === '/';
  return tightSlash && value.includes('.');
}

export function scanLoginProse(text: string, start: number, from: number, out: Candidate[]): number {
  if (!standsAlone(text, start, from)) return from;
  // Bounded line search: an unbounded indexOf per hit would make long single-line input quadratic.
  const backFrom = Math.max(1, start - BACK_WINDOW);
  const back = text.slice(backFrom - 1, start).lastIndexOf('\n');
  const forward = text.slice(from, from + WINDOW).indexOf('\n');
  const lineEnd = forward === -1 ? Math.min(text.length, from + WINDOW) : from + forward;
  // The pair may follow the login word ("login is admin / …") or precede it ("use admin:… to log in").
  // One character of left context keeps the pair's look-behind honest at the window start.
  const offset = back === -1 ? backFrom - 1 : backFrom + back;
  const window = text.slice(offset, lineEnd);
  PAIR.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = PAIR.exec(window)) !== null) {
    const userStart = offset + m.index;
    if (!/[A-Za-z]/.test(m[1]) || (userStart <= start && userStart + m[1].length >= start)) continue;
    const value = m[2].replace(/[.,;)]+$/, '');
    if (NOT_PASSWORD.test(value) || !isPasswordValue(value) || looksLikePath(m[0], m[1], value)) continue;
    const valueStart = offset + m.index + m[0].length - m[2].length;
    if (valueStart < from && valueStart + value.length > start) continue;
    out.push({ type: 'password', start: valueStart, end: valueStart + value.length, priority: PRIORITY.prose });
    break;
  }
  return lineEnd;
}
