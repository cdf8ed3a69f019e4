import { createHash } from 'node:crypto';
import { redact } from '../inspect/redact.js';
import type { SecretFinding } from '../inspect/types.js';

/**
 * What the loop may keep of an attack: the text with every credential and personal datum the secret redactor found
 * replaced by its placeholder (never neutralised spans: the analyser needs the operative part), and the SHA-256 of
 * its normalised form, which is all that is ever persisted about the content.
 */
export function redactForAnalysis(content: string, secrets: readonly SecretFinding[]): string {
  return secrets.length > 0 ? redact(content, secrets, []) : content;
}

/** Normalisation for de-duplication: case, compatibility forms and spacing do not make a new attack. */
export function contentHash(redacted: string): string {
  const normalised = redacted.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
  return createHash('sha256').update(normalised).digest('hex');
}
