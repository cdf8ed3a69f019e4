import { randomBytes } from 'node:crypto';
import { base62, hashKey } from './key-material.js';

/**
 * Opaque bearer secrets (refresh tokens, session cookies, password-reset tokens): a type prefix and 256 random
 * bits. Only the SHA-256 is stored, so a database read never yields a usable token.
 */
export const TOKEN_PREFIX = { refresh: 'bsr_', session: 'bss_', reset: 'bsp_' } as const;

export function newOpaqueToken(kind: keyof typeof TOKEN_PREFIX): { token: string; hash: string } {
  const token = TOKEN_PREFIX[kind] + base62(randomBytes(32));
  return { token, hash: hashKey(token) };
}

/** The hash to look a presented token up by, or undefined when it cannot be one of ours (wrong shape). */
export function opaqueHash(kind: keyof typeof TOKEN_PREFIX, presented: unknown): string | undefined {
  if (typeof presented !== 'string' || presented.length !== TOKEN_PREFIX[kind].length + 43) return undefined;
  if (!presented.startsWith(TOKEN_PREFIX[kind])) return undefined;
  return hashKey(presented);
}
