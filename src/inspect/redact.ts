import type { SecretFinding, Span } from './types.js';

/**
 * Replaces every secret with a typed placeholder (`[REDACTED:aws_access_key]`) and every
 * neutralised span with `[NEUTRALIZED]`. Overlapping spans are merged; the earliest wins its type.
 */
export function redact(content: string, secrets: readonly SecretFinding[], neutralize: readonly Span[]): string {
  const spans = [
    ...secrets.map((s) => ({ start: s.start, end: s.end, label: `[REDACTED:${s.type}]` })),
    ...neutralize.map((s) => ({ start: s.start, end: s.end, label: '[NEUTRALIZED]' })),
  ].sort((a, b) => a.start - b.start || b.end - a.end);
  let out = '';
  let cursor = 0;
  for (const span of spans) {
    if (span.end <= cursor) continue;
    if (span.start >= cursor) {
      out += content.slice(cursor, span.start) + span.label;
    }
    cursor = Math.max(cursor, span.end);
  }
  return out + content.slice(cursor);
}
