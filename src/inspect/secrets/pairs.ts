import { PRIORITY, type Candidate } from './candidate.js';
import { charClasses } from './entropy.js';
import { isPlaceholderToken } from './placeholders.js';

/**
 * An AWS secret access key has no prefix: 40 base64 characters. Next to an access key id
 * (`AKIA…` within a few lines) such a string is the other half of the pair, whatever the
 * key name. Hex strings (git SHAs, digests) never qualify: a random 40-character base64 key
 * has upper and lower case letters.
 */

const WINDOW = 300;
const SECRET_RE = /(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])/g;

export function scanAwsPairs(text: string, found: readonly Candidate[], out: Candidate[]): void {
  let scannedTo = 0;
  for (const key of found) {
    if (key.type !== 'aws_access_key') continue;
    const from = Math.max(scannedTo, key.start - WINDOW);
    const to = Math.min(text.length, key.end + WINDOW);
    if (from >= to) continue;
    const window = text.slice(from, to);
    scannedTo = to;
    SECRET_RE.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = SECRET_RE.exec(window)) !== null) {
      const value = m[0];
      const c = charClasses(value);
      if (c.upper === 0 || c.lower === 0 || c.digit === 0 || isPlaceholderToken(value)) continue;
      const start = from + m.index;
      out.push({ type: 'aws_secret_key', start, end: start + value.length, priority: PRIORITY.awsPair });
    }
  }
}
