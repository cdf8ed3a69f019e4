import { parseList } from 'structured-headers';

/** Parses a draft-09 RateLimit or RateLimit-Policy field (RFC 8941 List of Strings with parameters). */
export function policies(field: string | undefined): Map<string, Record<string, number>> {
  const out = new Map<string, Record<string, number>>();
  if (!field) return out;
  for (const [name, params] of parseList(field)) {
    const values: Record<string, number> = {};
    for (const [k, v] of params) values[k] = Number(v);
    out.set(String(name), values);
  }
  return out;
}
