import { PRIORITY, type Candidate } from './candidate.js';

/**
 * PEM / OpenSSH / PGP private-key blocks (RFC 7468 §2 armor; OpenSSH PROTOCOL.key; RFC 4880 §6.2).
 * Public keys and certificates use the same armor with other labels and are not secrets.
 * Blocks pasted truncated (no END line) still count when a base64 body follows the header.
 * Bodies that are `...`, `<redacted>` or a sentence are templates, not keys.
 */

const BEGIN = '-----BEGIN ';
const END = '-----END ';
const MAX_BODY = 65536;
const MIN_BODY_CHARS = 48;
const PRIVATE_LABEL = /^(?:(?:RSA|EC|DSA|OPENSSH|ENCRYPTED|PGP|SSH2 ENCRYPTED) )?PRIVATE KEY(?: BLOCK)?$/;
/** Armor header lines (RFC 1421 Proc-Type/DEK-Info, RFC 4880 Version/Comment). */
const ARMOR_HEADER = /^[A-Za-z-]+:.*$/gm;

function bodyLooksLikeKey(body: string): boolean {
  const cleaned = body.replace(/\\n/g, '\n').replace(ARMOR_HEADER, '');
  const compact = cleaned.replace(/[\s"',]/g, '');
  if (compact.length < MIN_BODY_CHARS) return false;
  // Random base64 of this length always has digits or '+'/'/': a body of letters is prose.
  return /^[A-Za-z0-9+/=]+$/.test(compact) && /[0-9+/]/.test(compact);
}

/** Body of a block without an END line: the base64 lines that follow the header. */
function truncatedBodyEnd(text: string, from: number): number {
  let i = from;
  const limit = Math.min(text.length, from + MAX_BODY);
  while (i < limit && /[A-Za-z0-9+/=\s\\]/.test(text[i])) {
    if (text[i] === '\n' && text[i + 1] === '\n') break;
    i++;
  }
  return i;
}

const PUTTY = 'PuTTY-User-Key-File-';
const PUTTY_LINES = 'Private-Lines:';
const PUTTY_MAX = 8192;

/** PuTTY .ppk files: the key is the base64 block after `Private-Lines: N`. */
function scanPuttyKeys(text: string, out: Candidate[]): void {
  let pos = 0;
  let lines = -2;
  while ((pos = text.indexOf(PUTTY, pos)) !== -1) {
    // Cached forward search: each marker is looked for once, keeping the scan linear.
    if (lines !== -1 && lines < pos) lines = text.indexOf(PUTTY_LINES, pos);
    if (lines === -1) return;
    const count = /^ *(\d{1,3})\r?\n/.exec(text.slice(lines + PUTTY_LINES.length, lines + PUTTY_LINES.length + 8));
    if (lines - pos > PUTTY_MAX || !count) {
      pos += PUTTY.length;
      continue;
    }
    let end = lines + PUTTY_LINES.length + count[0].length;
    const bodyStart = end;
    for (let line = 0; line < Number(count[1]) && end < text.length && end - bodyStart < PUTTY_MAX; line++) {
      const nl = text.indexOf('\n', end);
      end = nl === -1 || nl - end > 128 ? Math.min(text.length, end + 128) : nl + 1;
    }
    if (bodyLooksLikeKey(text.slice(bodyStart, end))) out.push({ type: 'private_key', start: pos, end, priority: PRIORITY.privateKey });
    pos = Math.max(pos + PUTTY.length, end);
  }
}

export function scanPrivateKeys(text: string, out: Candidate[]): void {
  scanPuttyKeys(text, out);
  let pos = 0;
  let nextEnd = -2;
  while ((pos = text.indexOf(BEGIN, pos)) !== -1) {
    const labelStart = pos + BEGIN.length;
    const labelEnd = text.indexOf('-----', labelStart);
    if (labelEnd === -1 || labelEnd - labelStart > 40) {
      pos = labelStart;
      continue;
    }
    const label = text.slice(labelStart, labelEnd);
    const bodyStart = labelEnd + 5;
    if (!PRIVATE_LABEL.test(label)) {
      pos = bodyStart;
      continue;
    }
    // One forward search for END markers shared by all BEGINs keeps this linear.
    if (nextEnd !== -1 && nextEnd < bodyStart) nextEnd = text.indexOf(END, bodyStart);
    let end: number;
    let bodyEnd: number;
    const nextBegin = text.indexOf(BEGIN, bodyStart);
    const closed = nextEnd !== -1 && nextEnd - bodyStart <= MAX_BODY && (nextBegin === -1 || nextBegin > nextEnd);
    if (closed) {
      bodyEnd = nextEnd;
      const close = text.indexOf('-----', nextEnd + END.length);
      end = close !== -1 && close - nextEnd < 60 ? close + 5 : nextEnd + END.length;
    } else {
      bodyEnd = truncatedBodyEnd(text, bodyStart);
      end = bodyEnd;
      while (end > bodyStart && /\s/.test(text[end - 1])) end--;
    }
    if (bodyLooksLikeKey(text.slice(bodyStart, bodyEnd))) {
      out.push({ type: 'private_key', start: pos, end, priority: PRIORITY.privateKey });
    }
    pos = Math.max(bodyStart, end);
  }
}
