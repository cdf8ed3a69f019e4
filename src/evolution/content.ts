import { createHash } from 'node:crypto';
import { redact } from '../inspect/redact.js';
import type { SecretFinding } from '../inspect/types.js';
import { maskForAnalysis } from '../inspect/rules/vocabulary.js';

/**
 * What the loop may keep of an attack, and all any analyser (offline or language model) ever sees: the text with
 * every credential and personal datum the secret redactor found replaced by its placeholder (never neutralised spans:
 * the analyser needs the operative part), then every token that is not common attack vocabulary masked
 * (src/inspect/rules/vocabulary.ts: URLs, e-mail addresses, hosts, numbers, identifiers, rare words). Held in memory
 * until analysed; only its hash is persisted.
 */
export function redactForAnalysis(content: string, secrets: readonly SecretFinding[]): string {
  return maskForAnalysis(secrets.length > 0 ? redact(content, secrets, []) : content);
}

/**
 * Normalisation for de-duplication: case, compatibility forms and spacing do not make a new attack. With a tenant,
 * the hash is that tenant's (issue 10): the same attack from another tenant is analysed again, which is how a rule
 * learns that a second tenant produced it independently.
 */
export function contentHash(redacted: string, tenantId?: string): string {
  const normalised = redacted.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
  const hash = createHash('sha256');
  if (tenantId !== undefined) hash.update(`${tenantId}\0`);
  return hash.update(normalised).digest('hex');
}
