import type { Candidate } from './candidate.js';
import { scanAssignments } from './assignments.js';
import { scanPrivateKeys } from './pem.js';
import { scanAwsPairs } from './pairs.js';
import { scanPii } from './pii.js';
import { scanShellCredentials } from './shell.js';
import { scanTokens } from './tokens.js';
import { scanUrlCredentials } from './urls.js';

/**
 * All detectors over one text. Each is a single linear pass (anchor regex or indexOf loop);
 * overlaps are left to `resolveOverlaps`.
 */
export function scanText(text: string): Candidate[] {
  const out: Candidate[] = [];
  scanPrivateKeys(text, out);
  scanTokens(text, out);
  scanAwsPairs(text, out.filter((c) => c.type === 'aws_access_key'), out);
  scanUrlCredentials(text, out);
  scanAssignments(text, out);
  scanShellCredentials(text, out);
  scanPii(text, out);
  return out;
}
