/**
 * The origin of a configured URL (scheme, host and port): what a log line or an error may name. Never the path, the
 * query or user:password, where a credential could sit.
 */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'unknown';
  }
}
