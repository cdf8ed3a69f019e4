import type { Candidate } from './candidate.js';
import { PLACEHOLDERS } from './config.js';
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
  return out.length === 0 || !EXAMPLE_HINT.test(text) ? out : out.filter((c) => !isDocumentedExample(text.slice(c.start, c.end)));
}

/**
 * Example credentials printed in vendors' documentation (config/secrets.json `documentedExamples`): a finding that
 * contains one is a copied doc snippet, never a working key. Checked only when the text holds one's first characters.
 */
const EXAMPLES: readonly string[] = PLACEHOLDERS.documentedExamples;
const EXAMPLE_HINT = new RegExp(EXAMPLES.map((e) => e.slice(0, 8).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'));

function isDocumentedExample(value: string): boolean {
  return EXAMPLES.some((e) => value.includes(e));
}
